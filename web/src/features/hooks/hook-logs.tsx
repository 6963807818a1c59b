/** The delivery log of one hook: newest first, each attempt with its status, answer and error. */
import type { HookLog } from '../../api/automations';
import { formatDateTime, formatNumber, locale, t } from '../../i18n';
import { translateServerMessage } from '../../i18n/server-messages';
import { eventName, deliveryStatus } from './hook-editor';

export function HookLogs(props: { logs: HookLog[] | null }) {
  if (!props.logs) return <p className="muted">{t('admin.hooks.loadingLog')}</p>;
  if (props.logs.length === 0) return <p className="muted">{t('admin.hooks.noDeliveries')}</p>;
  return (
    <table className="list-table hook-logs" aria-label={t('admin.hooks.deliveryLog')}>
      <thead><tr><th>{t('admin.hooks.colWhen')}</th><th>{t('admin.hooks.colEvent')}</th><th>{t('admin.hooks.colStatus')}</th><th>{t('admin.hooks.colAttempt')}</th><th>{t('admin.hooks.colAnswer')}</th><th>{t('admin.hooks.colTime')}</th><th>{t('admin.hooks.colError')}</th></tr></thead>
      <tbody>
        {props.logs.map((l) => (
          <tr key={`${l.id}-${l.attempt}`}>
            <td>{formatDateTime(l.created_at, { dateStyle: 'short', timeStyle: 'medium' })}</td>
            <td>{eventName(l.event)}</td>
            <td><span className={`badge badge-${l.status === 'success' ? 'applied' : l.status === 'error' ? 'failed' : 'pending'}`}>{deliveryStatus(l.status)}</span></td>
            <td>{l.attempt}</td>
            <td>{l.response_status ?? ''}</td>
            <td>{l.attempt ? t('admin.hooks.durationMs', { ms: formatNumber(l.duration_ms) }) : ''}</td>
            <td className="hook-error">{l.error ? translateServerMessage(l.error, locale.value) : ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
