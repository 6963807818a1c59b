/**
 * Schema changes made through Tablo (tables and columns renamed or dropped, columns shown under
 * another display name), announced so that
 * metadata built on names (formulas, rollups, lookups, rights) can follow them. The schema-change
 * operations emit; the owners of such metadata listen. Listeners run in registration order and are
 * awaited, so the change's answer is sent only once every listener has caught up.
 */
import type { MetaStore } from '../meta/store';

interface Scope {
  meta: MetaStore;
  projectId: string;
  dbAlias: string;
}

export type SchemaEvent =
  | (Scope & { kind: 'columnRenamed'; tn: string; from: string; to: string })
  | (Scope & { kind: 'columnDropped'; tn: string; cn: string })
  /** A column shown under another display name (`from`, `to`); announced once the model is read again. */
  | (Scope & { kind: 'columnAliasRenamed'; tn: string; from: string; to: string })
  | (Scope & { kind: 'tableRenamed'; from: string; to: string })
  | (Scope & { kind: 'tableDropped'; tn: string });

type Listener = (e: SchemaEvent) => Promise<void> | void;

const listeners: Listener[] = [];

/** Registers a listener for every schema event; answers the function that removes it. */
export function onSchemaEvent(listener: Listener): () => void {
  listeners.push(listener);
  return () => {
    const i = listeners.indexOf(listener);
    if (i >= 0) listeners.splice(i, 1);
  };
}

/** Announces a change to every listener, one after another. */
export async function emitSchemaEvent(e: SchemaEvent): Promise<void> {
  for (const l of [...listeners]) await l(e);
}
