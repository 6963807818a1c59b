/**
 * The audit log on /user/admin: account, team, token, data, schema, terminal, App Store, automation
 * (webhooks, cron jobs) and metadata events, newest first, filtered by kind and text.
 */
import { useState } from 'react';
import { http } from '../../api/http';
import { Button, FormMessage } from '../../components/form';
import { useLatestAnswer } from '../../components/use-latest-answer';
import { formatDateTime, formatNumber, locale, t } from '../../i18n';
import { translateServerMessage } from '../../i18n/server-messages';
import { authorName } from '../../i18n/author-names';

interface AuditRow {
  id: number;
  opType: string;
  description: string | null;
  userEmail: string | null;
  ip: string | null;
  tn?: string | null;
  pk?: string | null;
  cn?: string | null;
  value?: string | null;
  prevValue?: string | null;
  createdAt: string;
}

const KINDS = ['', 'AUTHENTICATION', 'TEAM', 'TOKEN', 'DATA', 'SCHEMA', 'TERMINAL', 'PLUGIN', 'AUTOMATION', 'METADATA'];
const PAGE = 50;

/** The name of an event kind in the current language ('' is every kind). */
function kindLabel(kind: string): string {
  switch (kind) {
    case 'AUTHENTICATION': return t('admin.audit.kindAuthentication');
    case 'TEAM': return t('admin.audit.kindTeam');
    case 'TOKEN': return t('admin.audit.kindToken');
    case 'DATA': return t('admin.audit.kindData');
    case 'SCHEMA': return t('admin.audit.kindSchema');
    case 'TERMINAL': return t('admin.audit.kindTerminal');
    case 'PLUGIN': return t('admin.audit.kindPlugin');
    case 'AUTOMATION': return t('admin.audit.kindAutomation');
    case 'METADATA': return t('admin.audit.kindMetadata');
    case '': return t('admin.audit.allEvents');
    default: return kind.toLowerCase();
  }
}

/** What happened: a data change names its table, row and (for an update) the column's values before and after. */
function What(props: { row: AuditRow }) {
  const r = props.row;
  if (r.opType !== 'DATA' || !r.tn) return <>{r.description ? translateServerMessage(r.description, locale.value) : ''}</>;
  const what = t('admin.audit.dataOp', { op: r.description ?? '' });
  return (
    <>
      {r.pk ? t('admin.audit.dataRow', { what, table: r.tn, pk: r.pk }) : t('admin.audit.dataTable', { what, table: r.tn })}
      {r.cn ? <div className="muted audit-change">{t('admin.audit.dataChange', { column: r.cn, before: r.prevValue ?? 'NULL', after: r.value ?? 'NULL' })}</div> : null}
    </>
  );
}

export function AuditLogPanel() {
  const [kind, setKind] = useState('');
  const [search, setSearch] = useState('');
  const [projectId, setProjectId] = useState('');
  const [table, setTable] = useState('');
  const [offset, setOffset] = useState(0);
  const [data, setData] = useState<{ list: AuditRow[]; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useLatestAnswer(
    () => http<{ list: AuditRow[]; pageInfo: { totalRows: number } }>('/admin/audit', { query: { op_type: kind || undefined, search, project_id: projectId.trim() || undefined, tn: table.trim() || undefined, limit: PAGE, offset } }),
    (r) => (setData({ list: r.list, total: r.pageInfo.totalRows }), setError(null)),
    (e) => setError(e.message),
    [kind, search, projectId, table, offset],
  );
  return (
    <section className="audit-log" aria-label={t('admin.audit.title')}>
      <div className="page-head">
        <h2>{t('admin.audit.title')}</h2>
        <div className="page-actions">
          <select aria-label={t('admin.audit.eventKind')} value={kind} onChange={(e) => (setKind(e.target.value), setOffset(0))}>
            {KINDS.map((k) => <option key={k} value={k}>{kindLabel(k)}</option>)}
          </select>
          <input className="search" aria-label={t('admin.audit.search')} placeholder={t('admin.audit.searchPlaceholder')} value={search} onChange={(e) => (setSearch(e.target.value), setOffset(0))} />
          <input className="search" aria-label={t('admin.audit.projectId')} placeholder={t('admin.audit.projectId')} value={projectId} onChange={(e) => (setProjectId(e.target.value), setOffset(0))} />
          <input className="search" aria-label={t('admin.audit.table')} placeholder={t('admin.audit.tablePlaceholder')} value={table} onChange={(e) => (setTable(e.target.value), setOffset(0))} />
        </div>
      </div>
      <FormMessage kind="error" text={error} />
      <table className="list-table">
        <thead><tr><th>{t('admin.audit.when')}</th><th>{t('admin.audit.kind')}</th><th>{t('admin.audit.who')}</th><th>{t('admin.audit.what')}</th><th>{t('admin.audit.ip')}</th></tr></thead>
        <tbody>
          {(data?.list ?? []).map((r) => (
            <tr key={r.id}>
              <td title={formatDateTime(r.createdAt, { dateStyle: 'full', timeStyle: 'medium' })}>{formatDateTime(r.createdAt)}</td>
              <td>{kindLabel(r.opType)}</td>
              <td>{r.userEmail ? authorName(r.userEmail) : ''}</td>
              <td><What row={r} /></td>
              <td>{r.ip ?? ''}</td>
            </tr>
          ))}
          {data && !data.list.length ? <tr><td colSpan={5} className="muted">{t('admin.audit.noEvents')}</td></tr> : null}
        </tbody>
      </table>
      {data && data.total > PAGE ? (
        <div className="page-actions">
          <Button variant="ghost" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>{t('admin.audit.newer')}</Button>
          <span className="muted">{t('admin.audit.range', { from: formatNumber(offset + 1), to: formatNumber(Math.min(offset + PAGE, data.total)), total: data.total })}</span>
          <Button variant="ghost" disabled={offset + PAGE >= data.total} onClick={() => setOffset(offset + PAGE)}>{t('admin.audit.older')}</Button>
        </div>
      ) : null}
    </section>
  );
}
