/**
 * Dashboard panels other than tables and definitions: Info (API endpoints), Team & Auth, Roles
 * Management (ACL), Meta Management, SQL Client, Audit (the database's migrations); the others name
 * what they will hold and say that this version does not have them yet.
 */
import { useEffect, useState } from 'react';
import { http } from '../../api/http';
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
import { currentProject } from '../../stores/project';
import { TerminalPanel } from '../terminal/terminal-panel';
import { CronJobs } from '../crons/cron-jobs';
import { GraphqlClient } from '../graphql-client/graphql-client';
import { AppStorePanel } from '../app-store/app-store-panel';

export const PANELS: Record<string, { title: string; holds: string }> = {
  info: { title: 'Info', holds: 'the project, its environments and its API endpoints' },
  roles: { title: 'Team & Auth', holds: 'users of this project with their roles, invites, and API tokens (Users Management, API Tokens Management, Roles Management)' },
  appStore: { title: 'App Store', holds: 'plugins to install: storage, e-mail, chat and other integrations' },
  meta: { title: 'Project Metadata', holds: 'export and import of the project metadata, and resetting it' },
  audit: { title: 'Audit', holds: 'the schema migrations of this database with apply and roll back, and the audit log of changes' },
  sqlClient: { title: 'SQL Client', holds: 'SQL editors that run queries against this database (owners and creators only)' },
  graphqlClient: { title: 'GraphQL Client', holds: 'an editor to run queries against this project’s GraphQL API' },
  grpcClient: { title: 'gRPC Client', holds: 'a client for gRPC services' },
  apiClient: { title: 'API Client', holds: 'a client to call the generated REST API with saved requests and variables' },
  terminal: { title: 'Terminal', holds: 'up to 5 terminals on the server machine' },
  crons: { title: 'Cron Jobs', holds: 'scheduled jobs: HTTP calls, SQL and notifications' },
  acl: { title: 'Roles Management', holds: 'per-table and per-column rights of each role' },
  disableOrEnableModel: { title: 'Meta Management', holds: 'which tables, views, functions and procedures each role sees in the tree' },
  projectSettings: { title: 'Themes', holds: 'the appearance settings' },
};

/** Panels only a project's owner or creator uses: not opened while previewing another role. */
export const OWNER_PANELS = new Set(['meta', 'roles', 'acl', 'disableOrEnableModel', 'sqlClient', 'projectSettings']);

function InfoPanel(props: { projectId: string }) {
  const [info, setInfo] = useState<unknown>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    http(`/nc/${props.projectId}/projectApiInfo`).then(setInfo, (e) => setError((e as Error).message));
  }, [props.projectId]);
  if (error) return <div className="form-message form-message-error">{error}</div>;
  return (
    <div className="panel">
      <h2>Project info</h2>
      <pre className="json-view">{info ? JSON.stringify(info, null, 2) : 'Loading…'}</pre>
      <p className="muted">The REST API is documented at the Swagger link; GraphQL answers at the gqlApiUrl with the same session token.</p>
    </div>
  );
}

export function Panel(props: { projectId: string; name: string; dbAlias?: string }) {
  const dbAlias = props.dbAlias ?? 'db';
  if (props.name === 'info') return <InfoPanel projectId={props.projectId} />;
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
        <h2>Themes</h2>
        <Button onClick={() => (settingsOpen.value = true)}>Open appearance settings</Button>
      </div>
    );
  }
  const p = PANELS[props.name];
  return (
    <div className="panel placeholder-panel" role="region" aria-label={p?.title ?? props.name}>
      <h2>{p?.title ?? props.name}</h2>
      <p>This tab will hold {p?.holds ?? 'this feature'}.</p>
      <p className="muted">It is not available in this version of Tablo yet.</p>
    </div>
  );
}
