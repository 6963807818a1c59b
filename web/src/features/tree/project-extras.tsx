/**
 * The tree's project entries: Info, Team & Auth, App Store, Project Metadata, Cron Jobs, Settings
 * (only for the project's owner or creator), Terminal (the Super Admin's), and Preview as a role /
 * Reset Preview. While previewing, the owner's entries (Team & Auth, Settings, Share, Cron Jobs,
 * Terminal, schema changes) disappear as for that role. A preview shows a role, not another person:
 * row rules naming `$user.email` or `$user.id` use the previewing user's own, and the tree says so.
 */
import { useEffect, useState } from 'react';
import { openTab } from '../../stores/tabs';
import { toast } from '../../stores/toasts';
import { PANELS } from '../tabs/panels';
import { PREVIEW_ROLES, previewAs, setPreview } from '../../stores/preview';
import { roleName } from '../team/roles';
import { useSignals } from '../../stores/signals';
import { panelOpener } from '../../actions/registry';
import { canShare, isProjectAdmin, isProjectOwner, projectRolesKnown } from '../../stores/project';
import { EntryIcon } from './tree-icons';
import { schemaGeneration } from '../../stores/schema-ui';
import { projectRoles } from '../../stores/project-reads';
import { isSuperAdmin, user } from '../../stores/session';
import { t } from '../../i18n';

const open = (name: string, dbAlias = 'db') => {
  const refused = openTab({ type: 'panel', name, dbAlias, title: PANELS[name]?.title ?? name });
  if (refused) toast('error', refused, 5000);
};

export function PanelLeaf(props: { name: string; dbAlias?: string }) {
  return (
    <li>
      <button className="tree-leaf tree-panel" onClick={() => open(props.name, props.dbAlias)}>
        <EntryIcon type="panel" name={props.name} />{PANELS[props.name]?.title ?? props.name}
      </button>
    </li>
  );
}

export function ProjectExtras(props: { projectId: string }) {
  useSignals();
  const [roles, setRoles] = useState<Record<string, boolean>>({});
  // Read again after a schema change, which is also how the server tells of a change of this user's roles.
  const generation = schemaGeneration.value;
  useEffect(() => {
    projectRoles(props.projectId).then((r) => (setRoles(r), (projectRolesKnown.value = true)), () => {});
  }, [props.projectId, generation]);
  useEffect(
    () => () => {
      projectRolesKnown.value = false;
    },
    [props.projectId],
  );
  // Who may preview is the real role; what shows is the previewed one (no role previewed is an owner).
  const admin = !!(roles.owner || roles.creator || roles.super);
  const creator = admin && !previewAs.value;
  const owner = !!(roles.owner || roles.super) && !previewAs.value;
  useEffect(() => {
    canShare.value = creator;
    isProjectAdmin.value = creator;
    isProjectOwner.value = owner;
    return () => {
      canShare.value = false;
      isProjectAdmin.value = false;
      isProjectOwner.value = false;
    };
  }, [creator, owner]);
  useEffect(() => {
    panelOpener.value = open;
    return () => {
      panelOpener.value = null;
    };
  }, []);
  return (
    <ul className="tree-extras">
      <PanelLeaf name="info" />
      {creator ? <PanelLeaf name="roles" /> : null}
      {isSuperAdmin.value && !previewAs.value ? <PanelLeaf name="appStore" /> : null}
      {creator ? <PanelLeaf name="meta" /> : null}
      <PanelLeaf name="graphqlClient" />
      <PanelLeaf name="apiClient" />
      <PanelLeaf name="grpcClient" />
      {isSuperAdmin.value && !previewAs.value ? <PanelLeaf name="terminal" /> : null}
      {creator ? <PanelLeaf name="crons" /> : null}
      {creator ? <PanelLeaf name="projectSettings" /> : null}
      {admin ? (
        <li className="preview">
          <label className="tree-leaf">
            {t('schema.tree.previewAs')}
            <select aria-label={t('schema.tree.previewAs')} value={previewAs.value ?? ''} onChange={(e) => setPreview(e.target.value || null)}>
              <option value="">{t('schema.tree.yourRole')}</option>
              {PREVIEW_ROLES.map((r) => (
                <option key={r} value={r}>{roleName(r)}</option>
              ))}
            </select>
          </label>
          {previewAs.value ? (
            <>
              <p className="preview-identity muted" role="note">{user.value?.email ? t('schema.tree.previewIdentity', { role: roleName(previewAs.value), email: user.value.email }) : t('schema.tree.previewNoIdentity', { role: roleName(previewAs.value) })}</p>
              <button className="tree-leaf" onClick={() => setPreview(null)}>{t('schema.tree.resetPreview')}</button>
            </>
          ) : null}
        </li>
      ) : null}
    </ul>
  );
}
