/** The bell: operations with their status and relative times, Clear, 'No new notifications'. */
import { useState } from 'react';
import { anyPending, clearNotifications, notifications, relativeTime } from '../../stores/notifications';
import { useSignals } from '../../stores/signals';

export function NotificationBell() {
  useSignals();
  const [open, setOpen] = useState(false);
  const list = notifications.value;
  return (
    <div className="menu">
      <button className="icon-btn" aria-label="Notifications" aria-expanded={open} onClick={() => setOpen(!open)}>
        <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
          <path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" />
          <path d="M13.73 21a2 2 0 0 1-3.46 0" />
        </svg>
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
