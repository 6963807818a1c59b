/** The open table's Import and Export (CSV, XLSX) buttons; exports follow the grid's filter and sort. */
import { useState } from 'react';
import { Button } from '../../components/form';
import type { TableMeta } from '../../api/dashboard';
import { downloadExport } from '../../api/transfer';
import { toast } from '../../stores/toasts';
import { openImport } from './import-store';

export function TransferButtons(props: { projectId: string; dbAlias: string; meta: TableMeta; where: string; sort: string; canImport: boolean }) {
  const [busy, setBusy] = useState(false);
  const { meta } = props;
  const exportAs = (format: 'csv' | 'xlsx') => {
    setBusy(true);
    downloadExport(props.projectId, meta._tn, format, { where: props.where || undefined, sort: props.sort || undefined })
      .catch((e) => toast('error', (e as Error).message))
      .finally(() => setBusy(false));
  };
  return (
    <span className="transfer-buttons">
      {props.canImport && meta.type === 'table' ? (
        <Button variant="ghost" title={`Import a CSV or Excel file into ${meta._tn}`} onClick={() => openImport({ projectId: props.projectId, dbAlias: props.dbAlias }, { tn: meta.tn, _tn: meta._tn })}>
          Import
        </Button>
      ) : null}
      <Button variant="ghost" title="Export the rows (with the filter and sort) as CSV" disabled={busy} onClick={() => exportAs('csv')}>
        CSV
      </Button>
      <Button variant="ghost" title="Export the rows (with the filter and sort) as an Excel workbook" disabled={busy} onClick={() => exportAs('xlsx')}>
        XLSX
      </Button>
    </span>
  );
}
