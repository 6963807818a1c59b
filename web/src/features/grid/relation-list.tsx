/**
 * The links of a row in the expanded form: each relation (belongs to, has many, many to many) with
 * the linked rows and the same pick, link and unlink as its grid cell; link tables of many-to-many
 * relations, which the grid does not show as columns, are named with a note.
 */
import { Link2 } from 'lucide-react';
import type { TableMeta } from '../../api/dashboard';
import type { GridStore } from './grid-store';
import { RelationCell } from './relation-cell';
import { relationKindLabel } from './relation-header';
import { localeTag, t } from '../../i18n';

/** 'a, b, c' in the current language. */
const listFormat = (names: string[]) => new Intl.ListFormat(localeTag(), { type: 'unit', style: 'short' }).format(names);

export function RelationList(props: { store: GridStore; meta: TableMeta; index: number; readOnly: boolean }) {
  const row = props.store.rows.value.get(props.index);
  if (!row) return null;
  const shown = props.meta.relations.filter((r) => !(r.type === 'hm' && r.targetIsJunction));
  const junctions = props.meta.relations.filter((r) => r.type === 'hm' && r.targetIsJunction);
  if (!shown.length && !junctions.length) return null;
  return (
    <section className="expand-links" aria-label={t('grid.links.label')}>
      <h3>{t('grid.links.label')}</h3>
      {shown.map((r) => (
        <div key={`${r.type}:${r.alias}`} className="expand-link" role="group" aria-label={t('grid.relation.name', { table: r.table, kind: relationKindLabel(r.type) })}>
          <span className="expand-link-name"><Link2 size={13} className="type-icon" aria-hidden />{r.table} <span className="muted">{relationKindLabel(r.type)}</span></span>
          <RelationCell store={props.store} meta={props.meta} relation={r} row={row} index={props.index} readOnly={props.readOnly} />
        </div>
      ))}
      {junctions.length ? (
        <p className="muted expand-junctions">
          {t('grid.links.junctions', { count: junctions.length, tables: listFormat(junctions.map((r) => r.table)) })}
        </p>
      ) : null}
    </section>
  );
}
