/** The header of a relation column (has many, belongs to, many to many), with its menu: remove the link. */
import { useState } from 'react';
import { Link2 } from 'lucide-react';
import type { RelationMeta } from '../../api/dashboard';
import { RELATION_COMMANDS, type RelationTarget } from '../../actions/registry';
import { t } from '../../i18n';
import { HeaderMenu } from './header-menu';

/** 'has many', 'belongs to', 'many to many' in the current language. */
export function relationKindLabel(type: RelationMeta['type']): string {
  return type === 'hm' ? t('grid.relation.hasMany') : type === 'bt' ? t('grid.relation.belongsTo') : t('grid.relation.manyToMany');
}

/** One relation header; its menu shows only to those who may change the schema. */
export function RelationHeader(props: { target: RelationTarget; id?: string; colIndex?: number; focused?: boolean; onMenuClosed?: () => void }) {
  const { relation: r } = props.target;
  const [menuOpen, setMenuOpen] = useState(false);
  const entries = RELATION_COMMANDS.filter((c) => !c.when || c.when(props.target));
  const kind = relationKindLabel(r.type);
  const name = t('grid.relation.name', { table: r.table, kind });
  const openChange = (open: boolean) => {
    setMenuOpen(open);
    if (!open) setTimeout(() => document.activeElement?.classList.contains('grid-th-menu') && props.onMenuClosed?.(), 0);
  };
  return (
    <div id={props.id} className={`grid-th relation-th${props.focused ? ' kb-active' : ''}`} role="columnheader" aria-colindex={props.colIndex} title={kind}>
      <Link2 size={13} className="type-icon" aria-hidden />
      <span className="grid-th-name">{r.table}</span> <span className="grid-type">{kind}</span>
      {entries.length ? (
        <HeaderMenu
          buttonLabel={t('grid.header.menuOf', { column: name })}
          menuLabel={t('grid.relation.menu', { name })}
          isOpen={menuOpen}
          onOpenChange={openChange}
          entries={entries.map((c) => ({ id: c.id, label: c.label, danger: c.id === 'relation.delete', run: () => c.run(props.target) }))}
        />
      ) : null}
    </div>
  );
}
