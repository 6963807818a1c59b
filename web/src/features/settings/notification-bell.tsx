/** The bell: operations with their status and relative times, Clear, 'No new notifications'. */
import { useRef, useState } from 'react';
import { Bell } from 'lucide-react';
import { useDismiss } from '../../components/use-dismiss';
import { anyPending, clearNotifications, notifications, relativeTime } from '../../stores/notifications';
import { useSignals } from '../../stores/signals';

export function NotificationBell() {
  useSignals();
  const [open, setOpen] = useState(false);
  const list = notifications.value;
  const box = useRef<HTMLDivElement>(null);
  useDismiss(box, open, () => setOpen(false));
  return (
    <div className="menu" ref={box}>
      <button className="icon-btn" aria-label="Notifications" aria-expanded={open} onClick={() => setOpen(!open)}>
        <Bell size={16} aria-hidden />
        {list.some((n) => n.status !== 'pending') ? <span className="dot" /> : null}
      </button>
      {anyPending.value ? <div className="progress-bar" role="progressbar" aria-label="Working" /> : null}
      {open ? (
        <div className="menu-list notifications" role="dialog" aria-label="Notifications list">
          {list.length === 0 ? (
            <div className="menu-item muted">No new notifications</div>
          ) : (
            list.map((n) => (
              <div key={n.id} className={`menu-item note note-${n.status}`}>
                <strong>{n.title}</strong> <span className="muted">{n.status} · {relativeTime(n.time)}</span>
                {n.detail ? <div className="muted">{n.detail}</div> : null}
              </div>
            ))
          )}
          {list.length ? <button className="menu-item" onClick={clearNotifications}>Clear</button> : null}
        </div>
      ) : null}
    </div>
  );
}
