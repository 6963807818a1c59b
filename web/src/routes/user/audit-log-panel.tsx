/** The audit log on /user/admin: account, team and token events, newest first, filtered by kind and text. */
import { useEffect, useState } from 'react';
import { http } from '../../api/http';
import { Button, FormMessage } from '../../components/form';

interface AuditRow { id: number; opType: string; description: string | null; userEmail: string | null; ip: string | null; createdAt: string }

const KINDS = ['', 'AUTHENTICATION', 'TEAM', 'TOKEN', 'DATA', 'SCHEMA', 'TERMINAL'];
const PAGE = 50;

export function AuditLogPanel() {
  const [kind, setKind] = useState('');
  const [search, setSearch] = useState('');
  const [projectId, setProjectId] = useState('');
  const [table, setTable] = useState('');
  const [offset, setOffset] = useState(0);
  const [data, setData] = useState<{ list: AuditRow[]; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    const t = setTimeout(() => {
      http<{ list: AuditRow[]; pageInfo: { totalRows: number } }>('/admin/audit', { query: { op_type: kind || undefined, search, project_id: projectId.trim() || undefined, tn: table.trim() || undefined, limit: PAGE, offset } }).then(
        (r) => setData({ list: r.list, total: r.pageInfo.totalRows }),
        (e) => setError((e as Error).message),
      );
    }, 200);
    return () => clearTimeout(t);
  }, [kind, search, projectId, table, offset]);
  return (
    <section className="audit-log" aria-label="Audit log">
      <div className="page-head">
        <h2>Audit log</h2>
        <div className="page-actions">
          <select aria-label="Event kind" value={kind} onChange={(e) => (setKind(e.target.value), setOffset(0))}>
            {KINDS.map((k) => <option key={k} value={k}>{k ? k.toLowerCase() : 'all events'}</option>)}
          </select>
          <input className="search" aria-label="Search the audit log" placeholder="Search by e-mail or text" value={search} onChange={(e) => (setSearch(e.target.value), setOffset(0))} />
          <input className="search" aria-label="Project id" placeholder="Project id" value={projectId} onChange={(e) => (setProjectId(e.target.value), setOffset(0))} />
          <input className="search" aria-label="Table" placeholder="Table (SQL name)" value={table} onChange={(e) => (setTable(e.target.value), setOffset(0))} />
        </div>
      </div>
      <FormMessage kind="error" text={error} />
      <table className="list-table">
        <thead><tr><th>When</th><th>Kind</th><th>Who</th><th>What</th><th>IP</th></tr></thead>
        <tbody>
          {(data?.list ?? []).map((r) => (
            <tr key={r.id}>
              <td>{new Date(r.createdAt).toLocaleString()}</td>
              <td>{r.opType.toLowerCase()}</td>
              <td>{r.userEmail ?? ''}</td>
              <td>{r.description ?? ''}</td>
              <td>{r.ip ?? ''}</td>
            </tr>
          ))}
          {data && !data.list.length ? <tr><td colSpan={5} className="muted">No events</td></tr> : null}
        </tbody>
      </table>
      {data && data.total > PAGE ? (
        <div className="page-actions">
          <Button variant="ghost" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>Newer</Button>
          <span className="muted">{offset + 1}–{Math.min(offset + PAGE, data.total)} of {data.total}</span>
          <Button variant="ghost" disabled={offset + PAGE >= data.total} onClick={() => setOffset(offset + PAGE)}>Older</Button>
        </div>
      ) : null}
    </section>
  );
}
