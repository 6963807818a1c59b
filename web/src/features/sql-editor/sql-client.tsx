/**
 * SQL Client: runs one statement at a time on the database (owners and creators only, through
 * the rawSql operation) and shows the rows it answers or the number of rows it changed.
 */
import { useState } from 'react';
import { aclApi } from '../../api/acl';
import { Button, FormMessage } from '../../components/form';

export function SqlClient(props: { projectId: string; dbAlias: string }) {
  const [sql, setSql] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<{ rows: Record<string, unknown>[]; affected: number; truncated: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      setResult(await aclApi.rawSql(props.projectId, props.dbAlias, sql));
    } catch (e) {
      setResult(null);
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const cols = result?.rows.length ? Object.keys(result.rows[0]!) : [];
  return (
    <section className="panel sql-client" aria-label="SQL Client">
      <h2>SQL Client</h2>
      <textarea
        aria-label="SQL statement"
        className="sql-input"
        rows={6}
        value={sql}
        placeholder="SELECT * FROM ..."
        onChange={(e) => setSql(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void run();
        }}
      />
      <div className="row-actions">
        <Button onClick={() => void run()} disabled={busy || !sql.trim()}>Run</Button>
        <span className="muted">Ctrl+Enter runs the statement.</span>
      </div>
      <FormMessage kind="error" text={error} />
      {result && !result.rows.length ? <p role="status">{result.affected} row(s) affected.</p> : null}
      {result && result.rows.length ? (
        <div className="sql-result">
          <table className="list-table">
            <thead>
              <tr>{cols.map((c) => <th key={c}>{c}</th>)}</tr>
            </thead>
            <tbody>
              {result.rows.map((r, i) => (
                <tr key={i}>{cols.map((c) => <td key={c}>{r[c] === null ? <span className="muted">NULL</span> : typeof r[c] === 'object' ? JSON.stringify(r[c]) : String(r[c])}</td>)}</tr>
              ))}
            </tbody>
          </table>
          {result.truncated ? <p className="muted">Only the first {result.rows.length} rows are shown.</p> : null}
        </div>
      ) : null}
    </section>
  );
}
