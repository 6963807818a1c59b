/** The delivery log of one hook: newest first, each attempt with its status, answer and error. */
import type { HookLog } from '../../api/automations';

export function HookLogs(props: { logs: HookLog[] | null }) {
  if (!props.logs) return <p className="muted">Loading the log…</p>;
  if (props.logs.length === 0) return <p className="muted">No deliveries yet: write a row or press Test.</p>;
  return (
    <table className="list-table hook-logs" aria-label="Delivery log">
      <thead><tr><th>When</th><th>Event</th><th>Status</th><th>Attempt</th><th>Answer</th><th>Time</th><th>Error</th></tr></thead>
      <tbody>
        {props.logs.map((l) => (
          <tr key={`${l.id}-${l.attempt}`}>
            <td>{new Date(l.created_at).toLocaleString()}</td>
            <td>{l.event}</td>
            <td><span className={`badge badge-${l.status === 'success' ? 'applied' : l.status === 'error' ? 'failed' : 'pending'}`}>{l.status}</span></td>
            <td>{l.attempt}</td>
            <td>{l.response_status ?? ''}</td>
            <td>{l.attempt ? `${l.duration_ms} ms` : ''}</td>
            <td className="hook-error">{l.error ?? ''}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
