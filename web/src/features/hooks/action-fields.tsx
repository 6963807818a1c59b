/** The action part of the hook editor: url call, e-mail, or a chat service's incoming webhook. */
import type { ChatType, HookNotification } from '../../api/automations';

export const ACTION_TYPES: { type: HookNotification['type']; label: string }[] = [
  { type: 'url', label: 'HTTP call (URL)' },
  { type: 'email', label: 'E-mail' },
  { type: 'slack', label: 'Slack' },
  { type: 'discord', label: 'Discord' },
  { type: 'teams', label: 'Microsoft Teams' },
  { type: 'mattermost', label: 'Mattermost' },
];

/** A fresh notification of a type, keeping what carries over (URL, body). */
export function notificationOfType(type: HookNotification['type'], from?: HookNotification): HookNotification {
  const body = from && 'body' in from ? from.body : undefined;
  if (type === 'url') return { type, method: 'POST', url: from?.type === 'url' ? from.url : '', headers: {}, body };
  if (type === 'email') return { type, to: '', subject: 'New row in {{ table }}', body: body ?? '{{ event }} on {{ table }}' };
  return { type: type as ChatType, webhook_url: from && 'webhook_url' in from ? from.webhook_url : undefined, body };
}

/** `a: 1` lines <-> header object. */
const headersText = (h: Record<string, string>) => Object.entries(h).map(([k, v]) => `${k}: ${v}`).join('\n');
const parseHeaders = (text: string) =>
  Object.fromEntries(
    text
      .split('\n')
      .map((l) => l.split(/:(.*)/s).map((s) => s.trim()))
      .filter(([k]) => k)
      .map(([k, v]) => [k!, v ?? '']),
  );

export function ActionFields(props: { value: HookNotification; onChange: (n: HookNotification) => void }) {
  const n = props.value;
  const set = (patch: Partial<HookNotification>) => props.onChange({ ...n, ...patch } as HookNotification);
  return (
    <div className="hook-action">
      <label className="field">
        Action
        <select aria-label="Action type" value={n.type} onChange={(e) => props.onChange(notificationOfType(e.target.value as HookNotification['type'], n))}>
          {ACTION_TYPES.map((a) => <option key={a.type} value={a.type}>{a.label}</option>)}
        </select>
      </label>
      {n.type === 'url' ? (
        <>
          <div className="hook-url-row">
            <select aria-label="Method" value={n.method} onChange={(e) => set({ method: e.target.value })}>
              {['POST', 'PUT', 'PATCH', 'GET', 'DELETE'].map((m) => <option key={m}>{m}</option>)}
            </select>
            <input aria-label="URL" placeholder="https://example.com/hooks/rows" value={n.url} onChange={(e) => set({ url: e.target.value })} />
          </div>
          <label className="field">
            Headers (one per line, Name: value)
            <textarea aria-label="Headers" rows={2} defaultValue={headersText(n.headers)} onChange={(e) => set({ headers: parseHeaders(e.target.value) })} />
          </label>
          <label className="field">
            Body template (empty: the JSON payload; {'{{ data.Column }}'} inserts a value)
            <textarea aria-label="Body template" rows={3} className="json-input" value={n.body ?? ''} onChange={(e) => set({ body: e.target.value || undefined })} />
          </label>
        </>
      ) : n.type === 'email' ? (
        <>
          <label className="field">To (comma separated)<input aria-label="To" value={n.to} onChange={(e) => set({ to: e.target.value })} /></label>
          <label className="field">Subject<input aria-label="Subject" value={n.subject} onChange={(e) => set({ subject: e.target.value })} /></label>
          <label className="field">Body<textarea aria-label="E-mail body" rows={3} value={n.body} onChange={(e) => set({ body: e.target.value })} /></label>
          <p className="muted">E-mails go through the SMTP plugin of the App Store; without it each delivery is logged as an error.</p>
        </>
      ) : (
        <>
          <label className="field">Incoming webhook URL (empty: the channel of the App Store's plugin)<input aria-label="Webhook URL" value={n.webhook_url ?? ''} onChange={(e) => set({ webhook_url: e.target.value || undefined })} /></label>
          <label className="field">
            Message (optional template; empty: a summary with the row)
            <textarea aria-label="Message" rows={2} value={n.body ?? ''} onChange={(e) => set({ body: e.target.value || undefined })} />
          </label>
        </>
      )}
    </div>
  );
}
