/**
 * A dialog listing rows to pick from (search in the display column): linking and re-parenting.
 * Built on react-aria's modal: rendered on the page's body (never under a grid row), it takes the
 * focus (the search box), keeps it inside, and Esc closes it. The list answers the latest search.
 * Keys: ArrowDown from the search box goes to the rows, arrows move between them, Enter in the
 * search box picks the first row found for what is typed (pressed before that search is answered, it
 * picks once the answer is in). Until the list answers what is typed, it says it is busy (aria-busy,
 * dimmed): its rows are about to be replaced. Rows keep their element only while they stay the same
 * row, so a click on a row that the new list replaces under the pointer never picks another one.
 */
import { useRef, useState, type KeyboardEvent } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Button } from '../../components/form';
import { useLatestAnswer } from '../../components/use-latest-answer';
import { t } from '../../i18n';

type Row = Record<string, unknown>;

export function RowPicker(props: {
  title: string;
  load: (search: string) => Promise<Row[]>;
  label: (row: Row) => string;
  onPick: (row: Row) => Promise<void>;
  onClose: () => void;
}) {
  const [search, setSearch] = useState('');
  const [rows, setRows] = useState<Row[] | null>(null);
  /** The search the listed rows answer (Enter picks only from the list of what is typed now). */
  const [listed, setListed] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const list = useRef<HTMLUListElement>(null);
  /** The search Enter was pressed on before its answer came: its first row is picked on arrival. */
  const enterOn = useRef<string | null>(null);
  const pick = (r: Row) => props.onPick(r).catch((e) => setError((e as Error).message));
  const onFound = (found: Row[]) => {
    setRows(found);
    setListed(search);
    setError(null);
    if (enterOn.current === search && found.length) (enterOn.current = null), void pick(found[0]!);
  };
  useLatestAnswer(() => props.load(search), onFound, (e) => setError(e.message), [search]);
  /** A key per row that stays with the row from one list to the next (identical rows told apart by their rank). */
  const keys = rowKeys(rows ?? []);
  const items = () => [...(list.current?.querySelectorAll<HTMLButtonElement>('.picker-item') ?? [])];
  /** Search box: ArrowDown goes to the first row, Enter picks it. In the list: arrows move between rows. */
  const onSearchKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') (e.preventDefault(), items()[0]?.focus());
    else if (e.key === 'Enter') {
      e.preventDefault();
      if (listed !== search) enterOn.current = search;
      else if (rows?.length) void pick(rows[0]!);
    }
  };
  const onListKey = (e: KeyboardEvent<HTMLUListElement>) => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLButtonElement);
    const next = at + (e.key === 'ArrowDown' ? 1 : -1);
    if (next < 0) (e.currentTarget.closest('.aria-dialog')?.querySelector<HTMLInputElement>('input.search'))?.focus();
    else all[Math.min(next, all.length - 1)]?.focus();
  };
  return (
    <ModalOverlay isOpen isDismissable onOpenChange={(open) => !open && props.onClose()} className="dialog-backdrop">
      <Modal className="dialog picker">
        <Dialog className="aria-dialog" aria-label={props.title}>
          <Heading slot="title">{props.title}</Heading>
          <input className="search" autoFocus placeholder={t('grid.picker.search')} aria-label={t('grid.picker.searchRows')} value={search} onChange={(e) => ((enterOn.current = null), setSearch(e.target.value))} onKeyDown={onSearchKey} />
          {error ? <div className="form-message form-message-error">{error}</div> : null}
          <ul className="picker-list" ref={list} onKeyDown={onListKey} aria-busy={listed !== search}>
            {rows === null ? <li className="muted">{t('grid.picker.loading')}</li> : rows.length === 0 ? <li className="muted">{t('grid.picker.empty')}</li> : null}
            {rows?.map((r, i) => (
              <li key={keys[i]}>
                <button type="button" className="picker-item" onClick={() => void pick(r)}>
                  {props.label(r)}
                </button>
              </li>
            ))}
          </ul>
          <div className="dialog-actions"><Button variant="secondary" onClick={props.onClose}>{t('grid.picker.close')}</Button></div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}

/** The rows' keys: each row's values, with a rank added for a row listed again. */
function rowKeys(rows: Row[]): string[] {
  const seen = new Map<string, number>();
  return rows.map((r) => {
    const text = JSON.stringify(r);
    const n = seen.get(text) ?? 0;
    seen.set(text, n + 1);
    return n ? `${text}#${n}` : text;
  });
}
