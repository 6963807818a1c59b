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
import { formatDateTime, formatRelative, t } from '../../i18n';
import { runOrder } from './migration-order';
import { TipButton } from '../hooks/tip-button';
import { useLatest } from '../../components/use-latest-answer';

const when = (iso: string | null) => (iso ? t('admin.migrations.when', { date: formatDateTime(iso), ago: formatRelative(iso) }) : '—');

/** A migration's status in the current language. */
const statusText = (status: string) =>
  status === 'applied' ? t('admin.migrations.statusApplied') : status === 'pending' ? t('admin.migrations.statusPending') : status === 'failed' ? t('admin.migrations.statusFailed') : status;

/** The Audit tab of one database. */
export function MigrationsPanel(props: { scope: DbScope }) {
  useSignals();
  const [list, setList] = useState<Migration[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<Set<string>>(new Set());
  const generation = schemaGeneration.value;
  const latest = useLatest();
  useEffect(() => {
    void latest(
      schemaApi.migrations(props.scope),
      (l) => (setList(l), setError(null)),
      (e) => setError(e.message),
    );
  }, [props.scope.projectId, props.scope.dbAlias, generation]);

  const toggle = (id: string) => {
    const next = new Set(open);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setOpen(next);
  };
  const apply = (m: Migration) => void confirmStatements(t('admin.migrations.applyOne', { title: m.title }), m.up, () => schemaApi.apply(props.scope, { id: m.id }));
  const rollback = (m: Migration) => void confirmStatements(t('admin.migrations.rollbackOne', { title: m.title }), m.down, () => schemaApi.rollback(props.scope, { id: m.id }));
  const all = (action: 'apply' | 'rollback') => {
    const ms = runOrder(list ?? [], action);
    const sql = ms.flatMap((m) => (action === 'apply' ? m.up : m.down));
    const title = action === 'apply' ? t('admin.migrations.applyMany', { count: ms.length }) : t('admin.migrations.rollbackMany', { count: ms.length });
    void confirmStatements(title, sql, () => (action === 'apply' ? schemaApi.apply(props.scope, { all: true }) : schemaApi.rollback(props.scope, { all: true })));
  };
  const pending = list ? runOrder(list, 'apply').length : 0;
  const applied = list ? runOrder(list, 'rollback').length : 0;

  return (
    <div className="panel migrations-panel" role="region" aria-label={t('admin.migrations.title')}>
      <div className="page-head">
        <h2>{t('admin.migrations.heading', { db: props.scope.dbAlias })}</h2>
        <div className="page-actions">
          <Button variant="secondary" disabled={!pending} onClick={() => all('apply')}>{t('admin.migrations.applyAll')}</Button>
          <Button variant="secondary" disabled={!applied} onClick={() => all('rollback')}>{t('admin.migrations.rollbackAll')}</Button>
        </div>
      </div>
      {error ? <div className="form-message form-message-error" role="alert">{error}</div> : null}
      {!list && !error ? <p className="muted">{t('admin.migrations.loading')}</p> : null}
      {list && list.length === 0 ? <p className="muted">{t('admin.migrations.empty')}</p> : null}
      {list && list.length ? (
        <table className="list-table migrations">
          <thead>
            <tr><th /><th>{t('admin.migrations.colTitle')}</th><th>{t('admin.migrations.colCreated')}</th><th>{t('admin.migrations.colStatus')}</th><th>{t('admin.migrations.colApplied')}</th><th /></tr>
          </thead>
          <tbody>
            {list.map((m) => {
              const id = String(m.id);
              const expanded = open.has(id);
              return (
                <Fragment key={id}>
                  <tr className={`migration migration-${m.status}`}>
                    <td><TipButton className="icon-btn" aria-expanded={expanded} label={t('admin.migrations.sqlOf', { title: m.title })} onPress={() => toggle(id)}><span aria-hidden>{expanded ? '▾' : '▸'}</span></TipButton></td>
                    <td>
                      {m.title}
                      {m.status === 'failed' && m.error ? <div className="field-error">{m.error}</div> : null}
                    </td>
                    <td>{when(m.createdAt)}</td>
                    <td><span className={`badge badge-${m.status}`}>{statusText(m.status)}</span></td>
                    <td>{when(m.appliedAt)}</td>
                    <td className="migration-actions">
                      {m.status === 'applied' ? <Button variant="ghost" onClick={() => rollback(m)}>{t('admin.migrations.rollback')}</Button> : <Button variant="ghost" onClick={() => apply(m)}>{t('admin.migrations.apply')}</Button>}
                    </td>
                  </tr>
                  {expanded ? (
                    <tr className="migration-sql">
                      <td />
                      <td colSpan={5}>
                        {m.error ? <div className="form-message form-message-error">{m.error}</div> : null}
                        <h4>{t('admin.migrations.up')}</h4>
                        <pre>{m.up.join(';\n') || '—'}</pre>
                        <h4>{t('admin.migrations.down')}</h4>
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
