/**
 * Meta Management (disableOrEnableModel): which tables, views, functions and procedures each role
 * sees in the tree. It does not change data rights (Roles Management does).
 */
import { useEffect, useState } from 'react';
import { aclApi, type ModelVisibility } from '../../api/acl';
import { FormMessage } from '../../components/form';
import { track } from '../../stores/notifications';
import { t } from '../../i18n';
import { roleName } from '../team/roles';
import { useLatest } from '../../components/use-latest-answer';

const groups = (): [ModelVisibility['type'], string][] => [
  ['table', t('admin.acl.tables')],
  ['view', t('admin.acl.views')],
  ['function', t('admin.acl.functions')],
  ['procedure', t('admin.acl.procedures')],
];

export function MetaManagement(props: { projectId: string; dbAlias: string }) {
  const [data, setData] = useState<{ roles: string[]; list: ModelVisibility[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const latest = useLatest();
  const load = () => latest(aclApi.visibility(props.projectId, props.dbAlias), setData, (e) => setError(e.message));
  useEffect(() => void load(), [props.projectId, props.dbAlias]);
  const set = (o: ModelVisibility, role: string, enabled: boolean) =>
    track(enabled ? t('admin.acl.showToOp', { name: o.title, role: roleName(role) }) : t('admin.acl.hideFromOp', { name: o.title, role: roleName(role) }), aclApi.setVisible(props.projectId, props.dbAlias, o, role, enabled), enabled ? t('admin.acl.shownTo', { name: o.title, role: roleName(role) }) : t('admin.acl.hiddenFrom', { name: o.title, role: roleName(role) })).then(load, (e) => setError((e as Error).message));

  return (
    <section aria-label={t('admin.acl.metaTitle')} className="acl-panel">
      <h3>{t('admin.acl.metaTitle')}</h3>
      <p className="muted">{t('admin.acl.metaHelp')}</p>
      <FormMessage kind="error" text={error} />
      {!data && !error ? <p className="muted">{t('admin.common.loading')}</p> : null}
      {data
        ? groups().map(([type, label]) => {
            const items = data.list.filter((o) => o.type === type);
            if (items.length === 0) return null;
            return (
              <table key={type} className="list-table acl-grid">
                <thead>
                  <tr>
                    <th>{label}</th>
                    {data.roles.map((r) => (
                      <th key={r}>{roleName(r)}</th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {items.map((o) => (
                    <tr key={o.name}>
                      <td>{o.title}</td>
                      {data.roles.map((r) => (
                        <td key={r}>
                          <input type="checkbox" aria-label={t('admin.acl.sees', { role: roleName(r), name: o.title })} checked={o.enabled[r] ?? true} onChange={(e) => void set(o, r, e.target.checked)} />
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
