/**
 * Meta Management (disableOrEnableModel): which tables, views, functions and procedures each role
 * sees in the tree. It does not change data rights (Roles Management does).
 */
import { useEffect, useState } from 'react';
import { aclApi, type ModelVisibility } from '../../api/acl';
import { FormMessage } from '../../components/form';
import { track } from '../../stores/notifications';

const GROUPS: [ModelVisibility['type'], string][] = [['table', 'Tables'], ['view', 'Views'], ['function', 'Functions'], ['procedure', 'Procedures']];

export function MetaManagement(props: { projectId: string; dbAlias: string }) {
  const [data, setData] = useState<{ roles: string[]; list: ModelVisibility[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = () => aclApi.visibility(props.projectId, props.dbAlias).then(setData, (e) => setError((e as Error).message));
  useEffect(() => void load(), [props.projectId, props.dbAlias]);
  const set = (o: ModelVisibility, role: string, enabled: boolean) =>
    track(`${o.title} ${enabled ? 'shown to' : 'hidden from'} ${role}`, aclApi.setVisible(props.projectId, props.dbAlias, o, role, enabled)).then(load, (e) => setError((e as Error).message));

  return (
    <section aria-label="Meta Management" className="acl-panel">
      <h3>Meta Management</h3>
      <p className="muted">Choose what each role sees in the tree. Owners and creators see everything; what a role may read or change is set in Roles Management.</p>
      <FormMessage kind="error" text={error} />
      {!data ? <p className="muted">Loading…</p> : null}
      {data
        ? GROUPS.map(([type, label]) => {
            const items = data.list.filter((o) => o.type === type);
            if (items.length === 0) return null;
            return (
              <table key={type} className="list-table acl-grid">
                <thead>
                  <tr>
                    <th>{label}</th>
                    {data.roles.map((r) => (
                      <th key={r}>{r}</th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {items.map((o) => (
                    <tr key={o.name}>
                      <td>{o.title}</td>
                      {data.roles.map((r) => (
                        <td key={r}>
                          <input type="checkbox" aria-label={`${r} sees ${o.title}`} checked={o.enabled[r] ?? true} onChange={(e) => void set(o, r, e.target.checked)} />
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            );
          })
        : null}
    </section>
  );
}
