/**
 * Dashboard panels other than tables and definitions: Info (API endpoints), Team & Auth, Roles
 * Management (ACL), Meta Management, SQL Client, Audit (the database's migrations); the others name
 * what they will hold and say that this version does not have them yet.
 */
import { settingsOpen } from '../../actions/registry';
import { Button } from '../../components/form';
import { UsersManagement } from '../team/users-management';
import { TokensManagement } from '../team/tokens-management';
import { RolesManagement } from '../acl/roles-management';
import { MetaManagement } from '../acl/meta-management';
import { SqlClient } from '../sql-editor/sql-client';
import { MigrationsPanel } from '../audit/migrations-panel';
import { ProjectMetaPanel } from '../meta/project-meta-panel';
import { ApiClientPanel } from '../api-client/api-client-panel';
import { GrpcClientPanel } from '../grpc-client/grpc-client-panel';
import { currentProject, isProjectAdmin, projectRolesKnown } from '../../stores/project';
import { useSignals } from '../../stores/signals';
import { TerminalPanel } from '../terminal/terminal-panel';
import { CronJobs } from '../crons/cron-jobs';
import { InfoPage } from '../info/info-page';
import { GraphqlClient } from '../graphql-client/graphql-client';
import { AppStorePanel } from '../app-store/app-store-panel';
import { t } from '../../i18n';

/** A panel's title and what it holds, read in the current language whenever they are used. */
const panel = (title: () => string, holds: () => string): { readonly title: string; readonly holds: string } => ({
  get title() {
    return title();
  },
  get holds() {
    return holds();
  },
});

/** The dashboard's panels by name: their tab titles and the sentence saying what each will hold. */
export const PANELS: Record<string, { readonly title: string; readonly holds: string }> = {
  info: panel(() => t('common.panels.info.title'), () => t('common.panels.info.holds')),
  roles: panel(() => t('common.panels.roles.title'), () => t('common.panels.roles.holds')),
  appStore: panel(() => t('common.panels.appStore.title'), () => t('common.panels.appStore.holds')),
  meta: panel(() => t('common.panels.meta.title'), () => t('common.panels.meta.holds')),
  audit: panel(() => t('common.panels.audit.title'), () => t('common.panels.audit.holds')),
  sqlClient: panel(() => t('common.panels.sqlClient.title'), () => t('common.panels.sqlClient.holds')),
  graphqlClient: panel(() => t('common.panels.graphqlClient.title'), () => t('common.panels.graphqlClient.holds')),
  grpcClient: panel(() => t('common.panels.grpcClient.title'), () => t('common.panels.grpcClient.holds')),
  apiClient: panel(() => t('common.panels.apiClient.title'), () => t('common.panels.apiClient.holds')),
  terminal: panel(() => t('common.panels.terminal.title'), () => t('common.panels.terminal.holds')),
  crons: panel(() => t('common.panels.crons.title'), () => t('common.panels.crons.holds')),
  acl: panel(() => t('common.panels.acl.title'), () => t('common.panels.acl.holds')),
  disableOrEnableModel: panel(() => t('common.panels.disableOrEnableModel.title'), () => t('common.panels.disableOrEnableModel.holds')),
  projectSettings: panel(() => t('common.panels.projectSettings.title'), () => t('common.panels.projectSettings.holds')),
};

/** Panels only a project's owner or creator uses: not opened while previewing another role. */
export const OWNER_PANELS = new Set(['meta', 'roles', 'acl', 'disableOrEnableModel', 'sqlClient', 'projectSettings', 'audit']);

export function Panel(props: { projectId: string; name: string; dbAlias?: string }) {
  useSignals();
  const dbAlias = props.dbAlias ?? 'db';
  // An owner's panel opened by address by someone else: said so, rather than buttons the server refuses.
  if (OWNER_PANELS.has(props.name) && projectRolesKnown.value && !isProjectAdmin.value) {
    return <div className="panel"><p className="muted">{t('common.panels.ownersOnly', { panel: PANELS[props.name]?.title ?? props.name })}</p></div>;
  }
  if (props.name === 'info') return <InfoPage projectId={props.projectId} />;
  if (props.name === 'apiClient') return <ApiClientPanel projectId={props.projectId} />;
  if (props.name === 'grpcClient') return <GrpcClientPanel projectId={props.projectId} />;
  if (props.name === 'meta') return <ProjectMetaPanel projectId={props.projectId} title={currentProject.value?.title ?? props.projectId} />;
  if (props.name === 'audit') return <MigrationsPanel scope={{ projectId: props.projectId, dbAlias }} />;
  if (props.name === 'acl') return <div className="panel team-panel"><RolesManagement projectId={props.projectId} dbAlias={dbAlias} /></div>;
  if (props.name === 'disableOrEnableModel') return <div className="panel team-panel"><MetaManagement projectId={props.projectId} dbAlias={dbAlias} /></div>;
  if (props.name === 'crons') return <CronJobs projectId={props.projectId} dbAlias={dbAlias} />;
  if (props.name === 'sqlClient') return <SqlClient projectId={props.projectId} dbAlias={dbAlias} />;
  if (props.name === 'terminal') return <TerminalPanel />;
  if (props.name === 'graphqlClient') return <GraphqlClient projectId={props.projectId} />;
  if (props.name === 'appStore') return <AppStorePanel />;
  if (props.name === 'roles') {
    return (
      <div className="panel team-panel">
        <UsersManagement projectId={props.projectId} />
        <TokensManagement projectId={props.projectId} />
        <RolesManagement projectId={props.projectId} dbAlias={dbAlias} />
      </div>
    );
  }
  if (props.name === 'projectSettings') {
    return (
      <div className="panel">
        <h2>{t('common.panels.projectSettings.title')}</h2>
        <Button onClick={() => (settingsOpen.value = true)}>{t('common.panels.openAppearance')}</Button>
      </div>
    );
  }
  const p = PANELS[props.name];
  return (
    <div className="panel placeholder-panel" role="region" aria-label={p?.title ?? props.name}>
      <h2>{p?.title ?? props.name}</h2>
      <p>{p ? p.holds : t('common.panels.willHoldFeature')}</p>
      <p className="muted">{t('common.panels.notYet')}</p>
    </div>
  );
}
