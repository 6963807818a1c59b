/**
 * One hook's form: title, event, condition builder, action, active; Save, Test, Delete; and its
 * delivery log below. The signing secret of a url hook is shown once, after it is made.
 */
import { useEffect, useState } from 'react';
import type { ColumnMeta } from '../../api/dashboard';
import type { DbScope } from '../../api/schema';
import { hooksApi, type Hook, type HookDraft, type HookLog, type HookNotification } from '../../api/automations';
import { Button, FormMessage } from '../../components/form';
import { ConfirmButton } from '../../components/confirm-button';
import { track } from '../../stores/notifications';
import { ConditionBuilder } from './condition-builder';
import { ActionFields } from './action-fields';
import { HookLogs } from './hook-logs';
import { ToggleSwitch } from './toggle-switch';
import { locale, t, tx } from '../../i18n';
import { translateServerMessage } from '../../i18n/server-messages';
import { useLatest } from '../../components/use-latest-answer';

const events = () =>
  [
    { event: 'after.insert', label: t('admin.hooks.afterInsert') },
    { event: 'after.update', label: t('admin.hooks.afterUpdate') },
    { event: 'after.delete', label: t('admin.hooks.afterDelete') },
  ] as const;

/** The short name of a hook event (insert, update, delete) in the current language. */
export function eventName(event: string): string {
  switch (event) {
    case 'after.insert': return t('admin.hooks.eventInsert');
    case 'after.update': return t('admin.hooks.eventUpdate');
    case 'after.delete': return t('admin.hooks.eventDelete');
    default: return event;
  }
}

/** A delivery's or run's status in the current language. */
export function deliveryStatus(status: string): string {
  switch (status) {
    case 'success': return t('admin.hooks.statusSuccess');
    case 'error': return t('admin.hooks.statusError');
    case 'pending': return t('admin.hooks.statusPending');
    case 'running': return t('admin.hooks.statusRunning');
    default: return status;
  }
}

export const emptyDraft = (): HookDraft => ({ title: '', event: 'after.insert', condition: null, active: true, notification: { type: 'url', method: 'POST', url: '', headers: {} } });

/** A draft as it would be saved, to tell whether it holds unsaved changes. */
const snapshot = (d: HookDraft) => JSON.stringify({ ...d, condition: d.condition?.trim() || null });

export function HookEditor(props: {
  scope: DbScope;
  tn: string;
  columns: ColumnMeta[];
  hook: Hook | null;
  freshSecret?: string | null;
  onSaved: (id: string | null, secret?: string | null) => void;
  /** Told whether the editor holds changes not saved yet (the dialog asks before they are dropped). */
  onDirtyChange?: (dirty: boolean) => void;
}) {
  const h = props.hook;
  const [draft, setDraft] = useState<HookDraft>(h ? { title: h.title, event: h.event, condition: h.condition, active: h.active, notification: h.notification } : emptyDraft());
  const [saved, setSaved] = useState(() => snapshot(draft));
  const dirty = snapshot(draft) !== saved;
  useEffect(() => props.onDirtyChange?.(dirty), [dirty]);
  /** Saved values shown in full (Show values) are no change: a draft without changes still has none. */
  const revealed = (n: HookNotification) => {
    const next = { ...draft, notification: n };
    if (!dirty) setSaved(snapshot(next));
    setDraft(next);
  };
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(props.freshSecret ?? null);
  const [logs, setLogs] = useState<HookLog[] | null>(h ? null : []);
  const [busy, setBusy] = useState(false);
  // The poll and the read after a test overlap: an earlier read answered late does not hide a delivery.
  const latest = useLatest();
  const loadLogs = () => (h ? latest(hooksApi.logs(props.scope, h.id), setLogs, (e) => setError(e.message)) : undefined);
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
        const res = await track(t('admin.hooks.saveOp'), hooksApi.update(props.scope, h.id, body), t('admin.hooks.saved'));
        if (res.secret) setSecret(res.secret);
        setSaved(snapshot(draft));
        props.onSaved(h.id);
      } else {
        const res = await track(t('admin.hooks.create'), hooksApi.create(props.scope, props.tn, body), t('admin.hooks.created'));
        props.onSaved(res.id, res.secret);
      }
    });
  const test = () =>
    run(async () => {
      const r = await hooksApi.test(props.scope, h!.id);
      if (r.status !== 'success') setError(t('admin.hooks.testFailed', { error: r.error ? translateServerMessage(r.error, locale.value) : deliveryStatus(r.status) }));
      await loadLogs();
    });
  const remove = () => run(async () => (await track(t('admin.hooks.deleteOp'), hooksApi.remove(props.scope, h!.id), t('admin.hooks.deleted')), props.onSaved(null)));

  return (
    <section className="hook-editor" aria-label={h ? t('admin.hooks.webhookNamed', { title: h.title }) : t('admin.hooks.newWebhookLabel')}>
      <div className="hook-grid">
        <label className="field">{t('admin.hooks.title')}<input aria-label={t('admin.hooks.title')} value={draft.title} onChange={(e) => setDraft({ ...draft, title: e.target.value })} /></label>
        <label className="field">
          {t('admin.hooks.event')}
          <select aria-label={t('admin.hooks.event')} value={draft.event} onChange={(e) => setDraft({ ...draft, event: e.target.value as HookDraft['event'] })}>
            {events().map((x) => <option key={x.event} value={x.event}>{x.label}</option>)}
          </select>
        </label>
        <div className="check-row">
          <ToggleSwitch isSelected={draft.active} onChange={(on) => setDraft({ ...draft, active: on })}>{t('admin.hooks.active')}</ToggleSwitch>
        </div>
      </div>
      <ConditionBuilder key={h?.id ?? 'new'} columns={props.columns} value={draft.condition ?? ''} onChange={(w) => setDraft({ ...draft, condition: w })} />
      <ActionFields
        value={draft.notification}
        onChange={(n) => setDraft({ ...draft, notification: n })}
        revealHeaders={h ? () => hooksApi.headers(props.scope, h.id) : undefined}
        revealWebhookUrl={h ? () => hooksApi.webhookUrl(props.scope, h.id) : undefined}
        onRevealed={revealed}
      />
      {secret ? (
        <div className="invite-link">
          {tx('admin.hooks.secretOnce', { header: <code>x-tablo-signature</code>, secret: <code data-testid="hook-secret">{secret}</code> })}
        </div>
      ) : h?.secret ? (
        <p className="muted">{tx('admin.hooks.secretMasked', { secret: <code>{h.secret}</code> })} <Button variant="ghost" onClick={() => run(async () => setSecret((await hooksApi.update(props.scope, h.id, { rotateSecret: true })).secret ?? null))}>{t('admin.hooks.newSecret')}</Button></p>
      ) : null}
      <FormMessage kind="error" text={error} />
      <div className="row-actions">
        <Button onClick={save} disabled={busy}>{h ? t('admin.common.save') : t('admin.hooks.create')}</Button>
        {h ? <Button variant="secondary" onClick={test} disabled={busy}>{t('admin.hooks.test')}</Button> : null}
        {h ? <ConfirmButton variant="danger" label={t('admin.hooks.delete')} heading={t('admin.hooks.deleteHeading', { title: h.title })} body={t('admin.hooks.deleteBody')} onConfirm={() => void remove()} disabled={busy} /> : null}
      </div>
      {h ? (
        <>
          <h4>{t('admin.hooks.deliveries')} <Button variant="ghost" onClick={() => void loadLogs()}>{t('admin.hooks.refresh')}</Button></h4>
          <HookLogs logs={logs} />
        </>
      ) : null}
    </section>
  );
}
