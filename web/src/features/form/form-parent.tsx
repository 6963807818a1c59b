/**
 * The field of a belongs-to foreign key in a form (Track.AlbumId -> Album): the parent row is picked
 * as in the grid, through the row picker searching the parent's display column; the field shows the
 * chosen row's display value and clears with ×; the form sends the parent's key.
 * Only where the form knows the relation: the dashboard passes the relations its user may read; a
 * shared form passes none (its link reads no other table), so its key stays a plain input.
 */
import { useState } from 'react';
import { Button as AriaButton } from 'react-aria-components';
import { ChevronDown, X } from 'lucide-react';
import type { ColumnMeta, RelationMeta } from '../../api/dashboard';
import { RowPicker } from '../grid/row-picker';
import { displaySearch, labelOf } from '../grid/relation-cell';
import { t } from '../../i18n';

type Row = Record<string, unknown>;

/** Where the parent rows of a form's foreign keys come from: the readable relations and a list of a table's rows. */
export interface ParentSource {
  relations: RelationMeta[];
  list: (table: string, where: string | undefined) => Promise<Row[]>;
}

/** The belongs-to relation whose single foreign-key column is `column`, if the source knows one. */
export const parentRelationOf = (source: ParentSource | undefined, column: ColumnMeta): RelationMeta | undefined =>
  source?.relations.find((r) => r.type === 'bt' && r.columns.length === 1 && r.refColumns.length === 1 && r.columns[0] === column._cn);

/**
 * The picker field of one foreign key; `text` is the chosen parent's key ('' when none), `labelId` the field label's id,
 * `parent` the parent row of the key the field starts with (an expanded row's), whose display value it shows.
 */
export function ParentField(props: { id: string; labelId: string; name: string; relation: RelationMeta; source: ParentSource; text: string; onChange: (text: string) => void; parent?: Row | null }) {
  const { relation: r, text } = props;
  const [picking, setPicking] = useState(false);
  /** The key the field started with: the given parent's (which may arrive after the field shows). */
  const [first] = useState(text);
  /** The display value of the row picked last, for the key it had (a key set otherwise shows as itself). */
  const [picked, setChosen] = useState<{ key: string; label: string } | null>(null);
  const given = props.parent && first !== '' ? { key: first, label: labelOf(r, props.parent) || first } : null;
  const chosen = picked ?? given;
  const shown = text === '' ? '' : chosen?.key === text ? chosen.label : text;
  const valueId = `${props.id}-value`;
  return (
    <div className="form-parent">
      <AriaButton id={props.id} className="form-parent-pick" aria-labelledby={`${props.labelId} ${valueId}`} onPress={() => setPicking(true)}>
        <span id={valueId} className={shown ? 'form-parent-value' : 'form-parent-value muted'}>{shown || t('grid.relation.choose', { table: r.table })}</span>
        <ChevronDown size={14} aria-hidden />
      </AriaButton>
      {text !== '' ? (
        <AriaButton className="icon-btn" aria-label={t('views.form.clearParent', { name: props.name })} onPress={() => (props.onChange(''), document.getElementById(props.id)?.focus())}>
          <X size={13} aria-hidden />
        </AriaButton>
      ) : null}
      {picking ? (
        <RowPicker
          title={t('grid.relation.choose', { table: r.table })}
          load={(search) => props.source.list(r.table, displaySearch(r, search))}
          label={(x) => labelOf(r, x)}
          onPick={async (parent) => {
            const key = String(parent[r.refColumns[0]!] ?? '');
            setChosen({ key, label: labelOf(r, parent) || key });
            props.onChange(key);
            setPicking(false);
          }}
          onClose={() => setPicking(false)}
        />
      ) : null}
    </div>
  );
}
