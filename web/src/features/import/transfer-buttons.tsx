/** The open table's Import and Export (CSV, XLSX) buttons; exports follow the grid's filter, search, sort and shown fields. */
import { useState } from 'react';
import { Button } from '../../components/form';
import type { TableMeta } from '../../api/dashboard';
import { downloadExport, type ExportQuery } from '../../api/transfer';
import { toast } from '../../stores/toasts';
import { openImport } from './import-store';
import { t } from '../../i18n';

/** `fileName`: the name the export is saved under (without its extension). */
type TransferProps = { projectId: string; dbAlias: string; meta: TableMeta; fileName: string; query: ExportQuery; canImport: boolean };

/** The transfers of the open table: its export as CSV or XLSX (busy while one downloads), and its import when allowed. */
export function useTransfers(props: TransferProps) {
  const [busy, setBusy] = useState(false);
  const { meta } = props;
  const exportAs = (format: 'csv' | 'xlsx') => {
    setBusy(true);
    downloadExport(props.projectId, meta._tn, format, props.query, props.fileName)
      .catch((e) => toast('error', (e as Error).message))
      .finally(() => setBusy(false));
  };
  const importInto = props.canImport && meta.type === 'table' ? () => openImport({ projectId: props.projectId, dbAlias: props.dbAlias }, { tn: meta.tn, _tn: meta._tn }) : undefined;
  return { busy, exportAs, importInto };
}

export function TransferButtons(props: TransferProps) {
  const { busy, exportAs, importInto } = useTransfers(props);
  const { meta } = props;
  return (
    <span className="transfer-buttons">
      {importInto ? (
        <Button variant="ghost" title={t('tools.transfer.importTip', { table: meta._tn })} onClick={importInto}>
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
