/**
 * The GraphQL API's named limits and how they are enforced: a depth limit (default 10), checked
 * while the query is validated, and a cost limit, checked just before execution when variable
 * values are known: every selected field counts 1, and the fields under a list count once per row
 * it may hold (its `limit`, 25 when not given, at most the server's page maximum). Over a limit
 * the query does not run and answers BAD_REQUEST naming the limit.
 *
 * Before any of that (and before any executor or cache keeps anything of the document),
 * `documentBudgetError` sizes the document with its fragments expanded, in time linear in the
 * document: each fragment's size and depth is worked out once and reused wherever it is spread.
 * A document whose expansion has more fields than MAX_COST (its cost could only be higher) or is
 * nested deeper than MAX_DEPTH is refused there, so a few kilobytes of fragments that double at
 * each level cannot make the walks below (which expand fragments per path) take exponential time.
 */
import {
  GraphQLError, Kind, type ASTVisitor, type DocumentNode, type FieldNode, type FragmentDefinitionNode, type OperationDefinitionNode,
  type SelectionSetNode, type ValidationContext,
} from 'graphql';
import { LIMITS } from '../../config/limits';

/** Deepest field nesting a query may have. */
export const MAX_DEPTH = 10;
/** Most fields a query may resolve, fields under lists multiplied by the lists' limits. */
export const MAX_COST = 50_000;
/** Most parent rows loaded by one relation statement (bound-parameter limits of the engines). */
export const MAX_BATCH_PARENTS = 5_000;
/** Most buckets TDistribution builds from min, max and step (the data core's limit of ranges). */
export const MAX_DISTRIBUTION_STEPS = LIMITS.distributeMaxRanges;

type Fragments = Record<string, FragmentDefinitionNode>;

/** Size of a selection with its fragments expanded: fields, and depth of fields not named `__*`. */
interface Size {
  nodes: number;
  depth: number;
}

/**
 * The BAD_REQUEST error of a document whose fragment expansion is over the limits (or whose
 * fragments spread themselves), else null; linear in the document's size.
 */
export function documentBudgetError(doc: DocumentNode, maxNodes = MAX_COST, maxDepth = MAX_DEPTH): GraphQLError | null {
  const fragments: Fragments = {};
  for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION && !fragments[d.name.value]) fragments[d.name.value] = d;
  const done = new Map<string, Size>();
  const visiting = new Set<string>();
  let cycle: string | null = null;

  const fragmentSize = (name: string): Size => {
    const hit = done.get(name);
    if (hit) return hit;
    const frag = fragments[name];
    if (!frag) return { nodes: 0, depth: 0 }; // unknown fragments are validation's to report
    if (visiting.has(name)) {
      cycle ??= name;
      return { nodes: 0, depth: 0 };
    }
    visiting.add(name);
    const size = setSize(frag.selectionSet);
    visiting.delete(name);
    done.set(name, size);
    return size;
  };
  const setSize = (set: SelectionSetNode): Size => {
    let nodes = 0;
    let depth = 0;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        const child = sel.selectionSet ? setSize(sel.selectionSet) : { nodes: 0, depth: 0 };
        nodes += 1 + child.nodes;
        if (!sel.name.value.startsWith('__')) depth = Math.max(depth, 1 + child.depth);
      } else {
        const inner = sel.kind === Kind.INLINE_FRAGMENT ? setSize(sel.selectionSet) : fragmentSize(sel.name.value);
        nodes += inner.nodes;
        depth = Math.max(depth, inner.depth);
      }
    }
    return { nodes, depth };
  };

  for (const d of doc.definitions) {
    if (d.kind !== Kind.OPERATION_DEFINITION) continue;
    const size = setSize(d.selectionSet);
    if (cycle) return new GraphQLError(`Fragment '${cycle}' spreads itself`, { nodes: [fragments[cycle]!], extensions: { code: 'BAD_REQUEST', http: { status: 400, spec: false } } });
    if (size.nodes > maxNodes) {
      return new GraphQLError(`The query expands to more than ${maxNodes} fields; the limit is ${maxNodes}`, { nodes: [d], extensions: { code: 'BAD_REQUEST', limit: 'cost', http: { status: 400, spec: false } } });
    }
    if (size.depth > maxDepth) {
      return new GraphQLError(`The query is nested ${size.depth} levels deep; the limit is ${maxDepth}`, { nodes: [d], extensions: { code: 'BAD_REQUEST', limit: 'depth', http: { status: 400, spec: false } } });
    }
  }
  return null;
}
type OnField = (field: FieldNode, depth: number, weight: number) => number;

/** Visits every field of a selection (fragments expanded once per path); `onField` gives the weight of its children. */
function walk(set: SelectionSetNode, fragments: Fragments, depth: number, weight: number, seen: Set<string>, onField: OnField): void {
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      if (sel.name.value.startsWith('__')) continue;
      const childWeight = onField(sel, depth + 1, weight);
      if (sel.selectionSet) walk(sel.selectionSet, fragments, depth + 1, childWeight, seen, onField);
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      walk(sel.selectionSet, fragments, depth, weight, seen, onField);
    } else {
      const frag = fragments[sel.name.value];
      if (frag && !seen.has(frag.name.value)) walk(frag.selectionSet, fragments, depth, weight, new Set([...seen, frag.name.value]), onField);
    }
  }
}

const fragmentsOf = (doc: DocumentNode): Fragments =>
  Object.fromEntries(doc.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));

/** Validation rule: rejects operations nested deeper than `maxDepth`. */
export function depthLimitRule(maxDepth = MAX_DEPTH) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = fragmentsOf(context.getDocument());
    return {
      OperationDefinition(node) {
        let depth = 0;
        walk(node.selectionSet, fragments, 0, 1, new Set(), (_f, d) => ((depth = Math.max(depth, d)), 1));
        if (depth > maxDepth) context.reportError(new GraphQLError(`The query is nested ${depth} levels deep; the limit is ${maxDepth}`, { nodes: [node], extensions: { code: 'BAD_REQUEST', limit: 'depth' } }));
      },
    };
  };
}

/** Fields that answer a list of rows, whose children count once per row. */
const LIST_FIELD = /(List|Distinct|GroupBy)$|^m2mNotChildren$/;

/** The cost of the operation about to run, with its variable values. */
export function operationCost(doc: DocumentNode, operation: OperationDefinitionNode, variables: Record<string, unknown> = {}, maxLimit: number = LIMITS.queryLimitMax): number {
  let cost = 0;
  walk(operation.selectionSet, fragmentsOf(doc), 0, 1, new Set(), (field, _d, weight) => {
    cost += weight;
    if (!LIST_FIELD.test(field.name.value)) return weight;
    const arg = field.arguments?.find((a) => a.name.value === 'limit')?.value;
    const raw = arg?.kind === Kind.INT ? Number(arg.value) : arg?.kind === Kind.VARIABLE ? Number(variables[arg.name.value]) : NaN;
    const rows = Number.isInteger(raw) && raw > 0 ? Math.min(raw, maxLimit) : LIMITS.defaultPageSize;
    return weight * rows;
  });
  return cost;
}

/** The error answered when an operation costs more than `maxCost`, or null. */
export function costError(cost: number, maxCost = MAX_COST): GraphQLError | null {
  return cost > maxCost ? new GraphQLError(`The query would cost ${cost}; the limit is ${maxCost}`, { extensions: { code: 'BAD_REQUEST', limit: 'cost', http: { status: 400 } } }) : null;
}
