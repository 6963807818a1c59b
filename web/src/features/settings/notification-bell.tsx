/** The bell: operations with their status and relative times, Clear, 'No new notifications'. */
import { Bell } from 'lucide-react';
import { Button as AriaButton, Dialog, DialogTrigger, Popover } from 'react-aria-components';
import { anyPending, clearNotifications, notifications } from '../../stores/notifications';
import { useSignals } from '../../stores/signals';
import { WithTooltip } from '../../components/tooltip';
import { formatRelative, t } from '../../i18n';

/** "just now" under a second, else "5 seconds ago", "3 minutes ago"… in the current language. */
export const sinceText = (time: number, now = Date.now()): string =>
  now - time < 1000 ? t('common.time.justNow') : formatRelative(new Date(time).toISOString(), now);

/** An operation's status in words. */
export const statusText = (status: 'pending' | 'success' | 'error'): string => t('common.notifications.status', { status });

export function NotificationBell() {
  useSignals();
  const list = notifications.value;
  return (
    <div className="menu">
      <DialogTrigger>
        <WithTooltip tip={t('common.notifications.button')}>
          <AriaButton className="icon-btn" aria-label={t('common.notifications.button')}>
            <Bell size={16} aria-hidden />
            {list.some((n) => n.status !== 'pending') ? <span className="dot" /> : null}
          </AriaButton>
        </WithTooltip>
        <Popover placement="bottom end" className="aria-popover notifications-popover">
          <Dialog className="menu-list notifications notifications-dialog" aria-label={t('common.notifications.list')}>
            {list.length === 0 ? (
              <div className="menu-item muted">{t('common.notifications.none')}</div>
            ) : (
              list.map((n) => (
                <div key={n.id} className={`menu-item note note-${n.status}`}>
                  <strong>{n.title}</strong> <span className="muted">{statusText(n.status)} · {sinceText(n.time)}</span>
                  {n.detail ? <div className="muted">{n.detail}</div> : null}
                </div>
              ))
            )}
            {list.length ? <button className="menu-item" onClick={clearNotifications}>{t('common.notifications.clear')}</button> : null}
          </Dialog>
        </Popover>
      </DialogTrigger>
      {anyPending.value ? <div className="progress-bar" role="progressbar" aria-label={t('common.notifications.working')} /> : null}
    </div>
  );
}
