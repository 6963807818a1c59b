/**
 * The Audit tab of a database: its schema migrations newest first (title, time, status, up and
 * down SQL on expand), Apply for a pending one, Roll back for an applied one, and both for all.
 * Each action shows the SQL it will run in the confirm step first.
 */
import { Fragment, useEffect, useState } from 'react';
import { schemaApi, type DbScope, type Migration } from '../../api/schema';
import { Button } from '../../components/form';
import { useSignals } from '../../stores/signals';
import { schemaGeneration } from '../../stores/schema-ui';
import { confirmStatements } from '../schema/change-flow';
import { relativeTime } from '../../stores/notifications';
import { runOrder } from './migration-order';

const when = (t: string | null) => (t ? `${new Date(t).toLocaleString()} (${relativeTime(new Date(t).getTime())})` : '—');

/** The Audit tab of one database. */
export function MigrationsPanel(props: { scope: DbScope }) {
  useSignals();
  const [list, setList] = useState<Migration[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<Set<string>>(new Set());
  const generation = schemaGeneration.value;
  useEffect(() => {
    schemaApi.migrations(props.scope).then(
      (l) => (setList(l), setError(null)),
      (e) => setError((e as Error).message),
    );
  }, [props.scope.projectId, props.scope.dbAlias, generation]);

  const toggle = (id: string) => {
    const next = new Set(open);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setOpen(next);
  };
  const apply = (m: Migration) => void confirmStatements(`Apply migration ${m.title}`, m.up, () => schemaApi.apply(props.scope, { id: m.id }));
  const rollback = (m: Migration) => void confirmStatements(`Roll back migration ${m.title}`, m.down, () => schemaApi.rollback(props.scope, { id: m.id }));
  const all = (action: 'apply' | 'rollback') => {
    const ms = runOrder(list ?? [], action);
    const sql = ms.flatMap((m) => (action === 'apply' ? m.up : m.down));
    const title = action === 'apply' ? `Apply ${ms.length} migrations` : `Roll back ${ms.length} migrations`;
    void confirmStatements(title, sql, () => (action === 'apply' ? schemaApi.apply(props.scope, { all: true }) : schemaApi.rollback(props.scope, { all: true })));
  };
  const pending = list ? runOrder(list, 'apply').length : 0;
  const applied = list ? runOrder(list, 'rollback').length : 0;

  return (
    <div className="panel migrations-panel" role="region" aria-label="Migrations">
      <div className="page-head">
        <h2>Audit · migrations of {props.scope.dbAlias}</h2>
        <div className="page-actions">
          <Button variant="secondary" disabled={!pending} onClick={() => all('apply')}>Apply all</Button>
          <Button variant="secondary" disabled={!applied} onClick={() => all('rollback')}>Roll back all</Button>
        </div>
      </div>
      {error ? <div className="form-message form-message-error" role="alert">{error}</div> : null}
      {!list && !error ? <p className="muted">Loading migrations…</p> : null}
      {list && list.length === 0 ? <p className="muted">No migrations yet: schema changes made in Tablo are listed here.</p> : null}
      {list && list.length ? (
        <table className="list-table migrations">
          <thead>
            <tr><th /><th>Title</th><th>Created</th><th>Status</th><th>Applied</th><th /></tr>
          </thead>
          <tbody>
            {list.map((m) => {
              const id = String(m.id);
              const expanded = open.has(id);
              return (
                <Fragment key={id}>
                  <tr className={`migration migration-${m.status}`}>
                    <td><button className="icon-btn" aria-expanded={expanded} aria-label={`SQL of ${m.title}`} onClick={() => toggle(id)}>{expanded ? '▾' : '▸'}</button></td>
                    <td>
                      {m.title}
                      {m.status === 'failed' && m.error ? <div className="field-error">{m.error}</div> : null}
                    </td>
                    <td>{when(m.createdAt)}</td>
                    <td><span className={`badge badge-${m.status}`}>{m.status}</span></td>
                    <td>{when(m.appliedAt)}</td>
                    <td className="migration-actions">
                      {m.status === 'applied' ? <Button variant="ghost" onClick={() => rollback(m)}>Roll back</Button> : <Button variant="ghost" onClick={() => apply(m)}>Apply</Button>}
                    </td>
                  </tr>
                  {expanded ? (
                    <tr className="migration-sql">
                      <td />
                      <td colSpan={5}>
                        {m.error ? <div className="form-message form-message-error">{m.error}</div> : null}
                        <h4>Up</h4>
                        <pre>{m.up.join(';\n') || '—'}</pre>
                        <h4>Down</h4>
                        <pre>{m.down.join(';\n') || '—'}</pre>
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
