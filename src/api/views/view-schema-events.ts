/**
 * Keeps saved views in step with schema changes made through Tablo: a renamed table or column is
 * renamed in its views (where, sort, fields, groupBy, cover and date columns, form fields); a
 * dropped table takes its views and links; a dropped column leaves the views' fields, sort, form
 * and kind settings. A where naming a dropped column is kept as it is (reads through the view then
 * answer 400 naming it) rather than silently widened, since a shared link must never show more rows.
 */
import { onSchemaEvent, type SchemaEvent } from '../../schema/schema-events';
import { viewsRepo, type ViewQueryParams } from '../../meta/views-repo';
import { mapWhereColumns } from '../../../common/where-columns';

const KIND_KEYS = ['groupBy', 'coverColumn', 'dateColumn', 'endDateColumn'] as const;

/** query_params with column `from` renamed to `to` (null: dropped). */
export function renameInQueryParams(qp: ViewQueryParams, from: string, to: string | null): ViewQueryParams {
  const out: ViewQueryParams = structuredClone(qp);
  const keep = (cn: string) => cn !== from || to !== null;
  const name = (cn: string) => (cn === from && to !== null ? to : cn);
  if (out.where && to !== null) out.where = mapWhereColumns(out.where, name);
  if (out.sort) {
    const items = out.sort.split(',').filter(Boolean).filter((s) => keep(s.replace(/^[-+]/, ''))).map((s) => (s.startsWith('-') ? `-${name(s.slice(1))}` : name(s.replace(/^\+/, ''))));
    if (items.length) out.sort = items.join(',');
    else delete out.sort;
  }
  if (out.fields) out.fields = out.fields.filter((f) => keep(f.cn)).map((f) => ({ ...f, cn: name(f.cn) }));
  for (const k of KIND_KEYS) {
    const v = out[k];
    if (typeof v !== 'string' || v !== from) continue;
    if (to === null) delete out[k];
    else out[k] = to;
  }
  if (out.form?.fields) out.form.fields = out.form.fields.filter((f) => keep(f.cn)).map((f) => ({ ...f, cn: name(f.cn) }));
  return out;
}

/** Applies one schema event to the stored views. */
export async function followViewSchemaEvent(e: SchemaEvent): Promise<void> {
  const repo = viewsRepo(e.meta);
  if (e.kind === 'tableRenamed') return void (await repo.renameTable(e.projectId, e.dbAlias, e.from, e.to));
  if (e.kind === 'tableDropped') return repo.dropTable(e.projectId, e.dbAlias, e.tn);
  // Views name columns by SQL name: a new display name changes nothing stored.
  if (e.kind === 'columnAliasRenamed') return;
  const [from, to] = e.kind === 'columnRenamed' ? [e.from, e.to] : [e.cn, null];
  for (const v of await repo.list(e.projectId, e.dbAlias, e.tn)) {
    const next = renameInQueryParams(v.query_params, from, to);
    if (JSON.stringify(next) !== JSON.stringify(v.query_params)) await repo.update(v.id, { queryParams: next });
  }
}

let registered = false;

/** Starts following schema events (once per process). */
export function followViewSchemaEvents(): void {
  if (registered) return;
  registered = true;
  onSchemaEvent(followViewSchemaEvent);
}
