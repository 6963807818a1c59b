/**
 * The project dashboard (/nc/{project_id}): the tree on the left, tabs on the right. The active
 * tab is mirrored in the query parameters name, dbalias and type, and restored on reload.
 */
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { schemaGeneration } from '../../stores/schema-ui';
import { closeLiveConnection, liveConnection } from '../../stores/realtime';
import { projectsApi, type ProjectSummary } from '../../api/projects';
import { HttpError, isUnreachable } from '../../api/http';
import { dashboardApi } from '../../api/dashboard';
import { projectMetaApi } from '../../api/project-meta';
import { forgetProjectReads, projectEnvs } from '../../stores/project-reads';
import { configMissing } from '../../app/route-targets';
import { ProjectTree } from '../../features/tree/project-tree';
import { ViewHost } from '../../features/views/view-host';
import { DefinitionView } from '../../features/definition/definition-view';
import { OWNER_PANELS, Panel, PANELS } from '../../features/tabs/panels';
import { previewAs } from '../../stores/preview';
import { activeKey, activeTab, closeTab, closeTableTab, maxTabs, openTab, renameTabs, resetTabs, tabs, type Tab, type TabType } from '../../stores/tabs';
import { useSignals } from '../../stores/signals';
import { toast } from '../../stores/toasts';
import { LIMITS } from '../../lib/limits';
import { currentProject } from '../../stores/project';
import { SchemaDialogs } from '../../features/schema/schema-dialogs';
import { HooksDialog } from '../../features/hooks/hooks-dialog';
import { ProjectHome } from '../../features/project-home/project-home';
import { EntryIcon } from '../../features/tree/tree-icons';
import { VIEW_ICONS } from '../../features/views/views-drawer';
import type { ViewType } from '../../api/views';
import { Table2, X } from 'lucide-react';
import { Tab as AriaTab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { locale, t } from '../../i18n';
import '../../components/components.css';
import { ErrorPage, NotMemberPage } from '../error/error-pages';
import { ImportDialogHost } from '../../features/import/import-dialog';

const TYPES: TabType[] = ['table', 'view', 'function', 'procedure', 'sequence', 'panel'];

/** The query of the address as the browser shows it now (the router's copy may lag behind it). */
const addressQuery = () => new URLSearchParams(window.location.hash.split('?')[1] ?? '');

/**
 * The project whose tabs stay open when its page is drawn again: a language switch renders every
 * screen anew (main.tsx), and the same project in another language keeps the tabs it had.
 */
let keepTabsOf: string | null = null;

export function ProjectPage() {
  useSignals();
  const { projectId = '' } = useParams();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const [project, setProject] = useState<ProjectSummary | null>(null);

  // Schema changes made by others read the tree and the open tables' columns again.
  useEffect(() => {
    let live = true;
    const off = liveConnection(projectId).onSchema((renamed, deleted) => {
      // An open table renamed by someone: its tab follows the new name.
      for (const r of renamed) renameTabs(r.dbAlias, r.from, r.to);
      // An open table deleted by someone: its tab closes, saying why.
      for (const d of deleted) {
        if (!tabs.value.some((x) => x.type === 'table' && x.dbAlias === d.dbAlias && x.name === d.name)) continue;
        closeTableTab(d.dbAlias, d.name);
        toast('info', t('app.change.tableDeleted', { name: d.name }), 5000);
      }
      schemaGeneration.value++;
      // Its default database removed meanwhile: the project cannot stay open, and /project/0 says why (spec).
      // The same read as the tree's, which reads them again for this change too.
      void projectEnvs(projectId).then(
        (envs) => live && configMissing(envs) && navigate(`/project/0?project=${encodeURIComponent(projectId)}`, { replace: true }),
        () => {},
      );
    });
    return () => ((live = false), off(), closeLiveConnection(), forgetProjectReads(projectId));
  }, [projectId]);

  /** Why the project is not open: unknown (404), or not the caller's. */
  const [missing, setMissing] = useState<'unknown' | 'notMember' | null>(null);
  useEffect(() => {
    // Another project by address: its own tree and tabs, read afresh.
    const language = locale.value;
    setProject(null);
    setMissing(null);
    if (keepTabsOf !== projectId) resetTabs();
    keepTabsOf = null;
    const rules = dashboardApi.uiAbility().then(
      (a) => void (maxTabs.value = a.maxTabs),
      (e: unknown) => e as Error,
    );
    let live = true;
    let leftUnreachable = false;
    const opening = projectsApi.list().then(
      async (list) => {
        if (!live) return;
        const p = list.find((x) => x.id === projectId);
        if (!p) {
          // Not in the caller's list: an unknown id, or a project they were removed from or never joined.
          // The server's project calls already answer a signed-in caller 404 for the one and 403 for the
          // other, so the page tells nothing more than the API does; an unknown id keeps the plain 404.
          const reason = await projectMetaApi.envs(projectId).then(
            () => 'notMember' as const,
            (e: unknown) => (e instanceof HttpError && e.status === 404 ? ('unknown' as const) : ('notMember' as const)),
          );
          return live && setMissing(reason);
        }
        // A stopped project cannot be used (its calls answer 503): the projects list, where it starts, says so.
        if (p.status === 'stopped') {
          toast('error', t('common.project.stopped', { title: p.title }), LIMITS.toastMs.error);
          return navigate('/projects', { replace: true });
        }
        // A project whose working environment lacks its default database cannot open: its
        // connection form says so (spec: 'Database config not found' leads to /project/0).
        const envs = await projectMetaApi.envs(p.id).catch(() => null);
        if (!live) return;
        if (envs && configMissing(envs)) return navigate(`/project/0?project=${encodeURIComponent(p.id)}`, { replace: true });
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
        // The spec's error toast, then the list; with no server to answer, the rules' failure below says nothing more.
        if (isUnreachable(e)) leftUnreachable = true;
        toast('error', (e as Error).message);
        navigate('/projects');
      },
    );
    // The default limit (99) stays; say why the server's rules were not read, unless the project's own toast said the server is gone.
    void Promise.all([rules, opening.catch(() => {})]).then(([e]) => {
      if (e && !(leftUnreachable && isUnreachable(e))) toast('error', t('common.project.uiRulesUnread', { error: e.message }));
    });
    return () => {
      live = false;
      currentProject.value = null;
      // Left because the language changed (not for another page): the tabs are there again in the new one.
      if (locale.value !== language) keepTabsOf = projectId;
    };
  }, [projectId]);

  // Mirror the active tab in the URL.
  const tab = activeTab.value;
  /** The tab the address showed last (null before the first). */
  const shownKey = useRef<string | null>(null);
  const paramsOf = (x: Tab | null) => (x ? { name: x.name, dbalias: x.dbAlias, type: x.type, ...(x.view ? { view: x.view } : {}) } : {});
  useEffect(() => {
    // The tab as it is now: on opening a project, this render's may be the previous project's, closed
    // by the effect above in this same commit (its name in the address would open it here).
    const current = activeTab.value;
    const shown = shownKey.current;
    shownKey.current = current?.key ?? null;
    if (current) {
      const next = new URLSearchParams(paramsOf(current));
      // Already in the address (opened from it, or Back and Forward came to it): nothing to add.
      if (next.toString() === addressQuery().toString()) return;
      // Another tab chosen: a step of its own in the history, so Back returns to the tab before. The
      // address takes the new tab in place when none was shown, or the one shown was just closed
      // (Back opens no closed tab again).
      setParams(next, { replace: !shown || !tabs.value.some((x) => x.key === shown) });
    } else if (project) setParams({}, { replace: true });
  }, [tab?.key]);
  /** Opens the tab an address within the open project names (or shows the open tab's address again). */
  const followAddress = (q: URLSearchParams) => {
    const type = q.get('type') as TabType | null;
    const name = q.get('name');
    const dbAlias = q.get('dbalias') ?? 'db';
    const view = q.get('view') ?? undefined;
    const open = activeTab.value;
    if (open && open.name === name && open.type === type && open.dbAlias === dbAlias && open.view === view) return;
    // A link to an owner's panel does not open it while previewing a role that lacks it (as on opening).
    const ownerOnly = type === 'panel' && !!name && OWNER_PANELS.has(name) && !!previewAs.value;
    if (type && name && TYPES.includes(type) && !ownerOnly) openTab({ type, name, dbAlias, title: type === 'panel' ? (PANELS[name]?.title ?? name) : name, view });
    else if (open && !type && !name) setParams(paramsOf(open), { replace: true });
  };
  // An address typed or followed within the open project: its tab opens (or the URL shows the open tab again).
  // The router's copy of the address can come later than the browser's: a tab chosen since this render
  // was drawn writes its own address with its render, and the browser's address is the one followed.
  useEffect(() => {
    if (project && project.id === projectId && activeTab.value?.key === tab?.key) followAddress(addressQuery());
  }, [params.toString(), project?.id]);
  // Back and Forward: the tab of the address come back to (the router's copy may not have taken the
  // steps in between, and would see no change).
  useEffect(() => {
    if (!project) return;
    const onPop = () => window.location.hash.split('?')[0] === `#/nc/${project.id}` && followAddress(addressQuery());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [project?.id]);

  if (missing === 'unknown') return <ErrorPage status={404} />;
  if (missing === 'notMember') return <NotMemberPage />;
  if (!project) return <p className="muted page">{t('common.project.loading')}</p>;
  return (
    <div className="dashboard">
      <aside className="dashboard-side">
        <ProjectTree key={project.id} projectId={project.id} title={project.title} />
      </aside>
      <section className="dashboard-main">
        {tabs.value.length === 0 ? (
          <>
            <div className="tab-bar" />
            <div className="tab-content">
              <ProjectHome projectId={project.id} title={project.title} />
            </div>
          </>
        ) : (
          <Tabs className="project-tabs" selectedKey={activeKey.value ?? undefined} onSelectionChange={(key) => (activeKey.value = String(key))}>
            <span id="tab-close-hint" hidden>
              {t('common.tabs.closeHint')}
            </span>
            {/* Delete or Backspace on the focused tab (the selected one) closes it. */}
            <div
              className="tab-bar-keys"
              onKeyDown={(e) => {
                if ((e.key !== 'Delete' && e.key !== 'Backspace') || !(e.target as HTMLElement).closest('[role="tab"]') || !activeKey.value) return;
                e.preventDefault();
                closeTab(activeKey.value);
                // Focus stays in the strip, on the tab now selected.
                requestAnimationFrame(() => document.querySelector<HTMLElement>('.tab-bar [role="tab"][aria-selected="true"]')?.focus());
              }}
            >
              <TabList className="tab-bar" aria-label={t('common.tabs.label')} items={tabs.value} dependencies={[locale.value]}>
                {(item) => <ProjectTab tab={item} />}
              </TabList>
            </div>
            {tabs.value.map((item) => (
              <TabPanel key={item.key} id={item.key} className="tab-content">
                {item.type === 'table' || item.type === 'view' ? (
                  <ViewHost key={item.key} projectId={project.id} tab={item} />
                ) : item.type === 'panel' ? (
                  <Panel key={item.key} projectId={project.id} name={item.name} dbAlias={item.dbAlias} />
                ) : (
                  <DefinitionView key={item.key} projectId={project.id} dbAlias={item.dbAlias} type={item.type} name={item.name} />
                )}
              </TabPanel>
            ))}
          </Tabs>
        )}
      </section>
      <SchemaDialogs />
      <HooksDialog />
      <ImportDialogHost projectId={projectId} />
    </div>
  );
}

/** A tab's title: a panel's in the current language, else the table's, view's or routine's name. */
const titleOf = (tab: Tab): string => (tab.type === 'panel' ? (PANELS[tab.name]?.title ?? tab.title) : tab.title);

/**
 * One tab of the strip: arrow keys move between tabs (react-aria), Delete or Backspace closes the
 * focused one (said by its description); the × closes it by pointer and is no focus stop of its own.
 */
/** The icon of a saved view's kind (grid, gallery, kanban, calendar, form), as the views drawer shows it. */
function ViewKindIcon(props: { type: ViewType }) {
  const Icon = VIEW_ICONS[props.type] ?? Table2;
  return <Icon size={14} className="entry-icon" aria-hidden />;
}

function ProjectTab(props: { tab: Tab }) {
  const tab = props.tab;
  const title = titleOf(tab);
  return (
    <AriaTab
      id={tab.key}
      className={({ isSelected }) => `tab${isSelected ? ' active' : ''}`}
      aria-describedby="tab-close-hint"
    >
      <span className="tab-title">
        {tab.view && tab.viewType ? <ViewKindIcon type={tab.viewType} /> : <EntryIcon type={tab.type} name={tab.name} />}
        {title}
      </span>
      <span
        className="tab-close"
        aria-hidden
        title={t('common.tabs.close', { title })}
        // The × acts on its own: it neither selects nor focuses the tab it closes.
        onPointerDown={(e) => e.stopPropagation()}
        onMouseDown={(e) => e.preventDefault()}
        onClick={(e) => {
          e.stopPropagation();
          closeTab(tab.key);
        }}
      >
        <X size={13} aria-hidden />
      </span>
    </AriaTab>
  );
}
