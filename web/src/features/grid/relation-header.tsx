/** The header of a relation column (has many, belongs to, many to many), with its menu: remove the link. */
import { useState } from 'react';
import { ChevronDown, Link2 } from 'lucide-react';
import { RELATION_COMMANDS, type RelationTarget } from '../../actions/registry';
import { PopupMenu } from '../../components/popup-menu';

const LABEL = { hm: 'has many', bt: 'belongs to', mm: 'many to many' } as const;

/** One relation header; its menu shows only to those who may change the schema. */
export function RelationHeader(props: { target: RelationTarget }) {
  const { relation: r } = props.target;
  const [menuAt, setMenuAt] = useState<{ x: number; y: number } | null>(null);
  const entries = RELATION_COMMANDS.filter((c) => !c.when || c.when(props.target));
  const name = `${r.table} (${LABEL[r.type]})`;
  return (
    <div className="grid-th relation-th" role="columnheader" title={LABEL[r.type]}>
      <Link2 size={13} className="type-icon" aria-hidden />
      <span className="grid-th-name">{r.table}</span> <span className="grid-type">{LABEL[r.type]}</span>
      {entries.length ? (
        <button
          className="grid-th-menu"
          aria-label={`Column menu of ${name}`}
          onClick={(e) => {
            const b = e.currentTarget.getBoundingClientRect();
            setMenuAt({ x: b.left, y: b.bottom });
          }}
        >
          <ChevronDown size={14} aria-hidden />
        </button>
      ) : null}
      {menuAt ? (
        <PopupMenu
          label={`Relation ${name}`}
          at={menuAt}
          onClose={() => setMenuAt(null)}
          entries={entries.map((c) => ({ id: c.id, label: c.label, danger: c.id === 'relation.delete', run: () => c.run(props.target) }))}
        />
      ) : null}
    </div>
  );
}
