/**
 * A table in the tree: opens its grid; its context menu (right click, or the ⋯ button) renames,
 * refreshes or deletes it. The Tables node's + button creates a table.
 */
import { useState } from 'react';
import { DB_COMMANDS, TABLE_COMMANDS, type TableTarget } from '../../actions/registry';
import type { DbScope } from '../../api/schema';
import { PopupMenu } from '../../components/popup-menu';
import { useSignals } from '../../stores/signals';

/** One table of the tree with its context menu. */
export function TableLeaf(props: { target: TableTarget; onOpen: () => void }) {
  const [menuAt, setMenuAt] = useState<{ x: number; y: number } | null>(null);
  const t = props.target;
  return (
    <div className="tree-leaf-row">
      <button
        className="tree-leaf"
        onClick={props.onOpen}
        onContextMenu={(e) => {
          e.preventDefault();
          setMenuAt({ x: e.clientX, y: e.clientY });
        }}
      >
        {t._tn}
      </button>
      <button
        className="icon-btn tree-leaf-menu"
        aria-label={`Actions of table ${t._tn}`}
        onClick={(e) => {
          const r = e.currentTarget.getBoundingClientRect();
          setMenuAt({ x: r.left, y: r.bottom });
        }}
      >
        ⋯
      </button>
      {menuAt ? (
        <PopupMenu
          label={`Table ${t._tn}`}
          at={menuAt}
          onClose={() => setMenuAt(null)}
          entries={TABLE_COMMANDS.filter((c) => !c.when || c.when(t)).map((c) => ({ id: c.id, label: c.label, danger: c.id === 'table.delete', run: () => c.run(t) }))}
        />
      ) : null}
    </div>
  );
}

/** The Tables node's actions (create table). */
export function TablesActions(props: { scope: DbScope }) {
  useSignals();
  return (
    <>
      {DB_COMMANDS.filter((c) => !c.when || c.when(props.scope)).map((c, i) => (
        <button key={c.id} className="icon-btn tree-add" style={i ? { right: 2 + i * 24 } : undefined} aria-label={c.label} title={c.label} onClick={() => c.run(props.scope)}>
          {c.icon ?? '+'}
        </button>
      ))}
    </>
  );
}
