/**
 * Webhooks of one table (from the table's menu in the tree or the grid toolbar): the list on the
 * left, the selected or new hook's editor and log on the right.
 */
import { useEffect, useState } from 'react';
import { dashboardApi, type ColumnMeta } from '../../api/dashboard';
import { hooksApi, type Hook } from '../../api/automations';
import { Button, FormMessage } from '../../components/form';
import { useSignals } from '../../stores/signals';
import { hookDialog } from './hooks-store';
import { HookEditor } from './hook-editor';

const EVENT_LABEL: Record<string, string> = { 'after.insert': 'insert', 'after.update': 'update', 'after.delete': 'delete' };

export function HooksDialog() {
  useSignals();
  const d = hookDialog.value;
  if (!d) return null;
  return <HooksOf key={`${d.scope.projectId}:${d.scope.dbAlias}:${d.tn}`} {...d} />;
}

function HooksOf(props: { scope: { projectId: string; dbAlias: string }; tn: string; _tn: string }) {
  const [hooks, setHooks] = useState<Hook[] | null>(null);
  const [columns, setColumns] = useState<ColumnMeta[]>([]);
  const [selected, setSelected] = useState<string | 'new'>('new');
  const [error, setError] = useState<string | null>(null);
  const [fresh, setFresh] = useState<{ id: string; secret: string | null } | null>(null);
  const close = () => (hookDialog.value = null);
  const load = (select?: string | null) =>
    hooksApi.list(props.scope, props.tn).then((list) => {
      setHooks(list);
      if (select !== undefined) setSelected(select ?? (list[0]?.id ?? 'new'));
      else if (selected === 'new' && list[0] && hooks === null) setSelected(list[0].id);
    }, (e) => setError((e as Error).message));
  useEffect(() => {
    void load();
    dashboardApi.tableMeta(props.scope.projectId, props.scope.dbAlias, props.tn).then((m) => setColumns(m.columns.filter((c) => !c.hidden)), (e) => setError((e as Error).message));
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && close();
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  const current = hooks?.find((h) => h.id === selected) ?? null;
  return (
    <div className="dialog-backdrop" onClick={close}>
      <div className="dialog dialog-wide hooks-dialog" role="dialog" aria-modal="true" aria-label={`Webhooks of ${props._tn}`} onClick={(e) => e.stopPropagation()}>
        <div className="hooks-head">
          <h2>Webhooks of {props._tn}</h2>
          <Button variant="ghost" onClick={close}>Close</Button>
        </div>
        <FormMessage kind="error" text={error} />
        <div className="hooks-body">
          <nav className="hooks-list" aria-label="Webhooks">
            {(hooks ?? []).map((h) => (
              <button key={h.id} className={`hooks-item${h.id === selected ? ' active' : ''}`} onClick={() => setSelected(h.id)}>
                <strong>{h.title}</strong>
                <span className="muted">{EVENT_LABEL[h.event]} · {h.notification.type}{h.active ? '' : ' · paused'}</span>
              </button>
            ))}
            <Button variant="secondary" onClick={() => setSelected('new')}>+ New webhook</Button>
          </nav>
          {hooks === null ? (
            <p className="muted">Loading…</p>
          ) : (
            <HookEditor key={current?.id ?? 'new'} scope={props.scope} tn={props.tn} columns={columns} hook={current} freshSecret={fresh && fresh.id === current?.id ? fresh.secret : null} onSaved={(id, secret) => {
              if (id && secret !== undefined) setFresh({ id, secret });
              void load(id);
            }} />
          )}
        </div>
      </div>
    </div>
  );
}
