/**
 * A dialog listing rows to pick from (search in the display column): linking and re-parenting.
 * Built on react-aria's modal: rendered on the page's body (never under a grid row), it takes the
 * focus (the search box), keeps it inside, and Esc closes it. The list answers the latest search.
 */
import { useState } from 'react';
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
  const [error, setError] = useState<string | null>(null);
  useLatestAnswer(() => props.load(search), (found) => (setRows(found), setError(null)), (e) => setError(e.message), [search]);
  return (
    <ModalOverlay isOpen isDismissable onOpenChange={(open) => !open && props.onClose()} className="dialog-backdrop">
      <Modal className="dialog picker">
        <Dialog className="aria-dialog" aria-label={props.title}>
          <Heading slot="title">{props.title}</Heading>
          <input className="search" autoFocus placeholder={t('grid.picker.search')} aria-label={t('grid.picker.searchRows')} value={search} onChange={(e) => setSearch(e.target.value)} />
          {error ? <div className="form-message form-message-error">{error}</div> : null}
          <ul className="picker-list">
            {rows === null ? <li className="muted">{t('grid.picker.loading')}</li> : rows.length === 0 ? <li className="muted">{t('grid.picker.empty')}</li> : null}
            {rows?.map((r, i) => (
              <li key={i}>
                <button type="button" className="picker-item" onClick={() => props.onPick(r).catch((e) => setError((e as Error).message))}>
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
