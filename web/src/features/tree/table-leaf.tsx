/**
 * A table in the tree: opens its grid; its menu (right click, or the ⋯ button) renames, refreshes
 * or deletes it. The Tables node's + button creates a table. The menus are react-aria menus
 * (arrow keys, typeahead, Esc, focus back to the opener).
 */
import { useRef, useState } from 'react';
import { Button, Menu, MenuItem, MenuTrigger, Popover, TooltipTrigger } from 'react-aria-components';
import { DB_COMMANDS, TABLE_COMMANDS, type TableTarget } from '../../actions/registry';
import type { DbScope } from '../../api/schema';
import { useSignals } from '../../stores/signals';
import { Ellipsis, Plus } from 'lucide-react';
import { EntryIcon } from './tree-icons';
import { TipButton, TipText } from './tip-button';
import { t } from '../../i18n';
import './tree.css';

/** The table's commands as menu items (Delete in the danger colour). */
function TableMenu(props: { target: TableTarget; onDone?: () => void }) {
  const tgt = props.target;
  const commands = TABLE_COMMANDS.filter((c) => !c.when || c.when(tgt));
  return (
    <Menu
      className="menu-list aria-menu"
      aria-label={t('schema.tree.tableMenu', { name: tgt._tn })}
      autoFocus="first"
      onAction={(id) => {
        props.onDone?.();
        commands.find((c) => c.id === id)?.run(tgt);
      }}
    >
      {commands.map((c) => (
        <MenuItem key={c.id} id={c.id} className={`menu-item${c.id === 'table.delete' ? ' menu-danger' : ''}`} textValue={c.label}>
          {c.label}
        </MenuItem>
      ))}
    </Menu>
  );
}

/** One table of the tree with its menu. */
export function TableLeaf(props: { target: TableTarget; onOpen: () => void }) {
  // Where a right click opened the menu (the menu of the ⋯ button opens under it instead).
  const [contextAt, setContextAt] = useState<{ x: number; y: number } | null>(null);
  const anchor = useRef<HTMLSpanElement>(null);
  const tgt = props.target;
  const actions = t('schema.tree.tableActions', { name: tgt._tn });
  return (
    <div className="tree-leaf-row">
      <button
        className="tree-leaf"
        onClick={props.onOpen}
        onContextMenu={(e) => {
          e.preventDefault();
          setContextAt({ x: e.clientX, y: e.clientY });
        }}
      >
        <EntryIcon type="table" />{tgt._tn}
      </button>
      <MenuTrigger>
        <TooltipTrigger delay={600} closeDelay={100}>
          <Button className="icon-btn tree-leaf-menu" aria-label={actions}>
            <Ellipsis size={14} aria-hidden />
          </Button>
          <TipText text={actions} />
        </TooltipTrigger>
        <Popover placement="bottom start" className="aria-popover">
          <TableMenu target={tgt} />
        </Popover>
      </MenuTrigger>
      <span ref={anchor} className="tree-menu-anchor" style={contextAt ? { left: contextAt.x, top: contextAt.y } : undefined} aria-hidden />
      {contextAt ? (
        <Popover triggerRef={anchor} isOpen onOpenChange={(open) => !open && setContextAt(null)} placement="bottom start" offset={0} className="aria-popover">
          <TableMenu target={tgt} onDone={() => setContextAt(null)} />
        </Popover>
      ) : null}
    </div>
  );
}

/** The Tables node's actions (create table, import). */
export function TablesActions(props: { scope: DbScope }) {
  useSignals();
  return (
    <>
      {DB_COMMANDS.filter((c) => !c.when || c.when(props.scope)).map((c, i) => (
        <TipButton key={c.id} className="icon-btn tree-add" style={i ? { right: 2 + i * 24 } : undefined} label={c.label} onPress={() => c.run(props.scope)}>
          {c.icon ?? <Plus size={14} aria-hidden />}
        </TipButton>
      ))}
    </>
  );
}
