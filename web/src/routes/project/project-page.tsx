/**
 * The project dashboard (/nc/{project_id}): the tree on the left, tabs on the right. The active
 * tab is mirrored in the query parameters name, dbalias and type, and restored on reload.
 */
import { useEffect, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { schemaGeneration } from '../../stores/schema-ui';
import { closeLiveConnection, liveConnection } from '../../stores/realtime';
import { projectsApi, type ProjectSummary } from '../../api/projects';
import { dashboardApi } from '../../api/dashboard';
import { ProjectTree } from '../../features/tree/project-tree';
import { ViewHost } from '../../features/views/view-host';
import { DefinitionView } from '../../features/definition/definition-view';
import { OWNER_PANELS, Panel, PANELS } from '../../features/tabs/panels';
import { previewAs } from '../../stores/preview';
import { activeKey, activeTab, closeTab, maxTabs, openTab, resetTabs, tabs, type TabType } from '../../stores/tabs';
import { useSignals } from '../../stores/signals';
import { toast } from '../../stores/toasts';
import { currentProject } from '../../stores/project';
import { SchemaDialogs } from '../../features/schema/schema-dialogs';
import { HooksDialog } from '../../features/hooks/hooks-dialog';
import { ImportDialogHost } from '../../features/import/import-dialog';

const TYPES: TabType[] = ['table', 'view', 'function', 'procedure', 'sequence', 'panel'];

export function ProjectPage() {
  useSignals();
  const { projectId = '' } = useParams();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const [project, setProject] = useState<ProjectSummary | null>(null);

  // Schema changes made by others read the tree and the open tables' columns again.
  useEffect(() => {
    const off = liveConnection(projectId).onSchema(() => schemaGeneration.value++);
    return () => (off(), closeLiveConnection());
  }, [projectId]);

  useEffect(() => {
    resetTabs();
    dashboardApi.uiAbility().then(
      (a) => (maxTabs.value = a.maxTabs),
      // The default limit (99) stays; say why the server's rules were not read.
      (e) => toast('error', `UI rules could not be read: ${(e as Error).message}`),
    );
    projectsApi.list().then(
      (list) => {
        const p = list.find((x) => x.id === projectId);
        if (!p) {
          toast('error', `Project '${projectId}' not found`);
          navigate('/projects');
          return;
        }
        setProject(p);
        currentProject.value = { id: p.id, title: p.title, projectType: p.projectType };
        const type = params.get('type') as TabType | null;
        const name = params.get('name');
        // A link to an owner's panel does not open it while previewing a role that lacks it.
        const ownerOnly = type === 'panel' && !!name && OWNER_PANELS.has(name) && !!previewAs.value;
        const view = (type === 'table' || type === 'view') && params.get('view') ? params.get('view')! : undefined;
        if (type && name && TYPES.includes(type) && !ownerOnly) openTab({ type, name, dbAlias: params.get('dbalias') ?? 'db', title: type === 'panel' ? (PANELS[name]?.title ?? name) : name, view });
      },
      (e) => {
        toast('error', (e as Error).message);
        navigate('/projects');
      },
    );
    return () => {
      currentProject.value = null;
    };
  }, [projectId]);

  // Mirror the active tab in the URL.
  const tab = activeTab.value;
  useEffect(() => {
    if (tab) setParams({ name: tab.name, dbalias: tab.dbAlias, type: tab.type, ...(tab.view ? { view: tab.view } : {}) }, { replace: true });
    else if (project) setParams({}, { replace: true });
  }, [tab?.key]);

  if (!project) return <p className="muted page">Loading project…</p>;
  return (
    <div className="dashboard">
      <aside className="dashboard-side">
        <ProjectTree projectId={project.id} title={project.title} />
      </aside>
      <section className="dashboard-main">
        <div className="tab-bar" role="tablist">
          {tabs.value.map((t) => (
            <div key={t.key} className={`tab${t.key === activeKey.value ? ' active' : ''}`} role="tab" aria-selected={t.key === activeKey.value}>
              <button className="tab-title" onClick={() => (activeKey.value = t.key)}>
                {t.title}
              </button>
              <button className="tab-close" aria-label={`Close ${t.title}`} onClick={() => closeTab(t.key)}>
                ×
              </button>
            </div>
          ))}
        </div>
        <div className="tab-content">
          {!tab ? (
            <div className="empty-state">
              <h2>{project.title}</h2>
              <p className="muted">Open a table, view, function, procedure or sequence from the tree.</p>
            </div>
          ) : tab.type === 'table' || tab.type === 'view' ? (
            <ViewHost key={tab.key} projectId={project.id} tab={tab} />
          ) : tab.type === 'panel' ? (
            <Panel key={tab.key} projectId={project.id} name={tab.name} dbAlias={tab.dbAlias} />
          ) : (
            <DefinitionView key={tab.key} projectId={project.id} dbAlias={tab.dbAlias} type={tab.type} name={tab.name} />
          )}
        </div>
      </section>
      <SchemaDialogs />
      <HooksDialog />
      <ImportDialogHost />
    </div>
  );
}
