/**
 * One hook's form: title, event, condition builder, action, active; Save, Test, Delete; and its
 * delivery log below. The signing secret of a url hook is shown once, after it is made.
 */
import { useEffect, useState } from 'react';
import type { ColumnMeta } from '../../api/dashboard';
import type { DbScope } from '../../api/schema';
import { hooksApi, type Hook, type HookDraft, type HookLog } from '../../api/automations';
import { Button, FormMessage } from '../../components/form';
import { track } from '../../stores/notifications';
import { ConditionBuilder } from './condition-builder';
import { ActionFields } from './action-fields';
import { HookLogs } from './hook-logs';

const EVENTS = [
  { event: 'after.insert', label: 'After insert' },
  { event: 'after.update', label: 'After update' },
  { event: 'after.delete', label: 'After delete' },
] as const;

export const emptyDraft = (): HookDraft => ({ title: '', event: 'after.insert', condition: null, active: true, notification: { type: 'url', method: 'POST', url: '', headers: {} } });

export function HookEditor(props: { scope: DbScope; tn: string; columns: ColumnMeta[]; hook: Hook | null; freshSecret?: string | null; onSaved: (id: string | null, secret?: string | null) => void }) {
  const h = props.hook;
  const [draft, setDraft] = useState<HookDraft>(h ? { title: h.title, event: h.event, condition: h.condition, active: h.active, notification: h.notification } : emptyDraft());
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(props.freshSecret ?? null);
  const [logs, setLogs] = useState<HookLog[] | null>(h ? null : []);
  const [busy, setBusy] = useState(false);
  const loadLogs = () => (h ? hooksApi.logs(props.scope, h.id).then(setLogs, (e) => setError((e as Error).message)) : undefined);
  useEffect(() => {
    void loadLogs();
    if (!h) return;
    const timer = setInterval(() => void loadLogs(), 3000);
    return () => clearInterval(timer);
  }, [h?.id]);

  const run = async (what: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await what();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const save = () =>
    run(async () => {
      const body = { ...draft, condition: draft.condition?.trim() || null };
      if (h) {
        const res = await track('Webhook saved', hooksApi.update(props.scope, h.id, body));
        if (res.secret) setSecret(res.secret);
        props.onSaved(h.id);
      } else {
        const res = await track('Webhook created', hooksApi.create(props.scope, props.tn, body));
        props.onSaved(res.id, res.secret);
      }
    });
  const test = () =>
    run(async () => {
      const r = await hooksApi.test(props.scope, h!.id);
      if (r.status !== 'success') setError(`Test delivery failed: ${r.error ?? r.status}`);
      await loadLogs();
    });
  const remove = () => run(async () => (await track('Webhook deleted', hooksApi.remove(props.scope, h!.id)), props.onSaved(null)));

  return (
    <section className="hook-editor" aria-label={h ? `Webhook ${h.title}` : 'New webhook'}>
      <div className="hook-grid">
        <label className="field">Title<input aria-label="Title" value={draft.title} onChange={(e) => setDraft({ ...draft, title: e.target.value })} /></label>
        <label className="field">
          Event
          <select aria-label="Event" value={draft.event} onChange={(e) => setDraft({ ...draft, event: e.target.value as HookDraft['event'] })}>
            {EVENTS.map((x) => <option key={x.event} value={x.event}>{x.label}</option>)}
          </select>
        </label>
        <label className="check-row"><input type="checkbox" aria-label="Active" checked={draft.active} onChange={(e) => setDraft({ ...draft, active: e.target.checked })} /> Active</label>
      </div>
      <ConditionBuilder key={h?.id ?? 'new'} columns={props.columns} value={draft.condition ?? ''} onChange={(w) => setDraft({ ...draft, condition: w })} />
      <ActionFields value={draft.notification} onChange={(n) => setDraft({ ...draft, notification: n })} />
      {secret ? (
        <div className="invite-link">
          Signing secret, shown only once (verify <code>x-tablo-signature</code> with it): <code data-testid="hook-secret">{secret}</code>
        </div>
      ) : h?.secret ? (
        <p className="muted">Signing secret: <code>{h.secret}</code> <Button variant="ghost" onClick={() => run(async () => setSecret((await hooksApi.update(props.scope, h.id, { rotateSecret: true })).secret ?? null))}>New secret</Button></p>
      ) : null}
      <FormMessage kind="error" text={error} />
      <div className="row-actions">
        <Button onClick={save} disabled={busy}>{h ? 'Save' : 'Create webhook'}</Button>
        {h ? <Button variant="secondary" onClick={test} disabled={busy}>Test</Button> : null}
        {h ? <Button variant="danger" onClick={remove} disabled={busy}>Delete</Button> : null}
      </div>
      {h ? (
        <>
          <h4>Deliveries <Button variant="ghost" onClick={() => void loadLogs()}>Refresh</Button></h4>
          <HookLogs logs={logs} />
        </>
      ) : null}
    </section>
  );
}
