/** The action part of the hook editor: url call, e-mail, or a chat service's incoming webhook. */
import type { ChatType, HookNotification } from '../../api/automations';
import { useState } from 'react';
import { Button } from '../../components/form';
import { toast } from '../../stores/toasts';
import { t } from '../../i18n';

export const actionTypes = (): { type: HookNotification['type']; label: string }[] => [
  { type: 'url', label: t('admin.hooks.actionUrl') },
  { type: 'email', label: t('admin.hooks.actionEmail') },
  { type: 'slack', label: 'Slack' }, // i18n-ignore
  { type: 'discord', label: 'Discord' }, // i18n-ignore
  { type: 'teams', label: 'Microsoft Teams' }, // i18n-ignore
  { type: 'mattermost', label: 'Mattermost' }, // i18n-ignore
];

/** A fresh notification of a type, keeping what carries over (URL, body). */
export function notificationOfType(type: HookNotification['type'], from?: HookNotification): HookNotification {
  const body = from && 'body' in from ? from.body : undefined;
  if (type === 'url') return { type, method: 'POST', url: from?.type === 'url' ? from.url : '', headers: {}, body };
  if (type === 'email') return { type, to: '', subject: t('admin.hooks.defaultSubject'), body: body ?? t('admin.hooks.defaultBody') };
  return { type: type as ChatType, webhook_url: from && 'webhook_url' in from ? from.webhook_url : undefined, body };
}

/** `a: 1` lines <-> header object (the hook editor's and the cron job form's headers). */
export const headersText = (h: Record<string, string>) => Object.entries(h).map(([k, v]) => `${k}: ${v}`).join('\n');
export const parseHeaders = (text: string): Record<string, string> =>
  Object.fromEntries(
    text
      .split('\n')
      .map((l) => l.split(/:(.*)/s).map((s) => s.trim()))
      .filter(([k]) => k)
      .map(([k, v]) => [k!, v ?? '']),
  );

/** What the server shows in place of a saved header value (and its last characters). */
const HEADER_MASK = '••••'; // i18n-ignore

/**
 * Header lines of a saved url hook or HTTP cron job: their values come masked; left so they keep
 * their saved value, retyped they replace it; `reveal` reads them in full on purpose (Show values).
 */
export function HeadersField(props: {
  label: string;
  headers: Record<string, string>;
  onChange: (h: Record<string, string>) => void;
  reveal?: () => Promise<Record<string, string>>;
  /** Takes the headers shown in full (default onChange): the saved values, not a change. */
  onRevealed?: (h: Record<string, string>) => void;
  className?: string;
}) {
  /** Bumped when the headers are replaced from outside the text box (shown in full): it takes them anew. */
  const [headersRead, setHeadersRead] = useState(0);
  const [revealing, setRevealing] = useState(false);
  const masked = Object.values(props.headers).some((v) => v.startsWith(HEADER_MASK));
  const reveal = async () => {
    setRevealing(true);
    try {
      const plain = await props.reveal!();
      // Lines typed meanwhile stay; those still masked show their saved value.
      (props.onRevealed ?? props.onChange)(Object.fromEntries(Object.entries(props.headers).map(([k, v]) => [k, v.startsWith(HEADER_MASK) && k in plain ? plain[k]! : v])));
      setHeadersRead((x) => x + 1);
    } catch (e) {
      toast('error', (e as Error).message);
    } finally {
      setRevealing(false);
    }
  };
  return (
    <>
      <label className="field">
        {t('admin.hooks.headersHelp')}
        <textarea key={headersRead} aria-label={props.label} className={props.className} rows={2} defaultValue={headersText(props.headers)} onChange={(e) => props.onChange(parseHeaders(e.target.value))} />
      </label>
      {masked ? (
        <p className="muted hook-headers-masked">
          {t('admin.hooks.headersMasked')}{' '}
          {props.reveal ? <Button variant="ghost" onClick={() => void reveal()} disabled={revealing}>{t('admin.hooks.showHeaders')}</Button> : null}
        </p>
      ) : null}
    </>
  );
}

/**
 * The action's fields. A saved url hook's header values come masked (see HeadersField), as does a
 * saved chat hook's webhook URL: left so it keeps the saved one, retyped it replaces it;
 * `revealWebhookUrl` reads it in full on purpose (Show values). What is shown in full goes to
 * `onRevealed` (default onChange): it is the saved value, not a change.
 */
export function ActionFields(props: {
  value: HookNotification;
  onChange: (n: HookNotification) => void;
  revealHeaders?: () => Promise<Record<string, string>>;
  revealWebhookUrl?: () => Promise<string | undefined>;
  onRevealed?: (n: HookNotification) => void;
}) {
  const n = props.value;
  const set = (patch: Partial<HookNotification>) => props.onChange({ ...n, ...patch } as HookNotification);
  const [revealing, setRevealing] = useState(false);
  const revealUrl = async () => {
    setRevealing(true);
    try {
      const url = await props.revealWebhookUrl!();
      // Still masked (not retyped meanwhile): the saved URL in full.
      if (url && n.type !== 'url' && n.type !== 'email' && n.webhook_url?.includes(HEADER_MASK)) (props.onRevealed ?? props.onChange)({ ...n, webhook_url: url });
    } catch (e) {
      toast('error', (e as Error).message);
    } finally {
      setRevealing(false);
    }
  };
  return (
    <div className="hook-action">
      <label className="field">
        {t('admin.hooks.action')}
        <select aria-label={t('admin.hooks.actionType')} value={n.type} onChange={(e) => props.onChange(notificationOfType(e.target.value as HookNotification['type'], n))}>
          {actionTypes().map((a) => <option key={a.type} value={a.type}>{a.label}</option>)}
        </select>
      </label>
      {n.type === 'url' ? (
        <>
          <div className="hook-url-row">
            <select aria-label={t('admin.hooks.method')} value={n.method} onChange={(e) => set({ method: e.target.value })}>
              {['POST', 'PUT', 'PATCH', 'GET', 'DELETE'].map((m) => <option key={m}>{m}</option>)}
            </select>
            <input aria-label={t('admin.hooks.url')} placeholder="https://example.com/hooks/rows/{{ data.Id }}" // i18n-ignore
              value={n.url} onChange={(e) => set({ url: e.target.value })} />
          </div>
          <HeadersField label={t('admin.hooks.headers')} headers={n.headers} onChange={(headers) => set({ headers })} reveal={props.revealHeaders} onRevealed={(headers) => (props.onRevealed ?? props.onChange)({ ...n, headers })} />
          <label className="field">
            {t('admin.hooks.bodyTemplateHelp', { example: '{{ data.Column }}' })}
            <textarea aria-label={t('admin.hooks.bodyTemplate')} rows={3} className="json-input" value={n.body ?? ''} onChange={(e) => set({ body: e.target.value || undefined })} />
          </label>
        </>
      ) : n.type === 'email' ? (
        <>
          <label className="field">{t('admin.hooks.toHelp')}<input aria-label={t('admin.hooks.to')} value={n.to} onChange={(e) => set({ to: e.target.value })} /></label>
          <label className="field">{t('admin.hooks.subject')}<input aria-label={t('admin.hooks.subject')} value={n.subject} onChange={(e) => set({ subject: e.target.value })} /></label>
          <label className="field">{t('admin.hooks.body')}<textarea aria-label={t('admin.hooks.emailBody')} rows={3} value={n.body} onChange={(e) => set({ body: e.target.value })} /></label>
          <p className="muted">{t('admin.hooks.emailHelp')}</p>
        </>
      ) : (
        <>
          <label className="field">{t('admin.hooks.webhookUrlHelp')}<input aria-label={t('admin.hooks.webhookUrl')} value={n.webhook_url ?? ''} onChange={(e) => set({ webhook_url: e.target.value || undefined })} /></label>
          {n.webhook_url?.includes(HEADER_MASK) ? (
            <p className="muted hook-url-masked">
              {t('admin.hooks.webhookUrlMasked')}{' '}
              {props.revealWebhookUrl ? <Button variant="ghost" onClick={() => void revealUrl()} disabled={revealing}>{t('admin.hooks.showHeaders')}</Button> : null}
            </p>
          ) : null}
          <label className="field">
            {t('admin.hooks.messageHelp')}
            <textarea aria-label={t('admin.hooks.message')} rows={2} value={n.body ?? ''} onChange={(e) => set({ body: e.target.value || undefined })} />
          </label>
        </>
      )}
    </div>
  );
}
