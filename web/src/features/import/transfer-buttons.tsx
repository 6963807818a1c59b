/** The open table's Import and Export (CSV, XLSX) buttons; exports follow the grid's filter, search, sort and shown fields. */
import { useState } from 'react';
import { Button } from '../../components/form';
import type { TableMeta } from '../../api/dashboard';
import { downloadExport, type ExportQuery } from '../../api/transfer';
import { toast } from '../../stores/toasts';
import { openImport } from './import-store';
import { t } from '../../i18n';

export function TransferButtons(props: { projectId: string; dbAlias: string; meta: TableMeta; query: ExportQuery; canImport: boolean }) {
  const [busy, setBusy] = useState(false);
  const { meta } = props;
  const exportAs = (format: 'csv' | 'xlsx') => {
    setBusy(true);
    downloadExport(props.projectId, meta._tn, format, props.query)
      .catch((e) => toast('error', (e as Error).message))
      .finally(() => setBusy(false));
  };
  return (
    <span className="transfer-buttons">
      {props.canImport && meta.type === 'table' ? (
        <Button variant="ghost" title={t('tools.transfer.importTip', { table: meta._tn })} onClick={() => openImport({ projectId: props.projectId, dbAlias: props.dbAlias }, { tn: meta.tn, _tn: meta._tn })}>
          {t('tools.transfer.import')}
        </Button>
      ) : null}
      <Button variant="ghost" title={t('tools.transfer.exportCsvTip')} disabled={busy} onClick={() => exportAs('csv')}>
        {/* i18n-ignore */}CSV
      </Button>
      <Button variant="ghost" title={t('tools.transfer.exportXlsxTip')} disabled={busy} onClick={() => exportAs('xlsx')}>
        {/* i18n-ignore */}XLSX
      </Button>
    </span>
  );
}
