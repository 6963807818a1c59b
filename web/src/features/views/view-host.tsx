/**
 * A table tab: the saved view it shows (the tab's own view, or the table's default Grid view), the
 * component of that view's kind, and the views drawer beside it. Without saved views (a server
 * that does not keep them) the grid alone is shown, its state kept in the browser.
 */
import { GridSkeleton } from '../../components/skeleton';
import { useEffect, useMemo, useRef, useState } from 'react';
import { PanelRightOpen } from 'lucide-react';
import { dashboardApi, type TableMeta } from '../../api/dashboard';
import { useSignals } from '../../stores/signals';
import { schemaGeneration } from '../../stores/schema-ui';
import { closeTab, retitleTab, type Tab } from '../../stores/tabs';
import { GridBody } from '../grid/grid';
import { gridColumns } from '../grid/grid-columns';
import { Kanban } from '../kanban/kanban';
import { Calendar } from '../calendar/calendar';
import { FormView } from '../form/form-view';
import { Gallery } from '../gallery/gallery';
import { bindView, type ViewBinding } from './view-binding';
import { useCanEditViews } from './view-rights';
import { VIEW_ICONS, ViewsDrawer } from './views-drawer';
import { viewsStoreOf } from './views-store';
import { t } from '../../i18n';
import { useLatest } from '../../components/use-latest-answer';
import { liveConnection } from '../../stores/realtime';
import { PresenceAvatars } from './presence-avatars';
import { serverReachable } from '../../stores/server-status';

const DRAWER_KEY = 'tablo.viewsDrawer';
/**
 * Windows between a phone (where the drawer goes below the view) and a wide screen: beside the tree
 * the drawer left the view a sliver, so there it lies over the view (views.css, same widths) and
 * starts hidden; showing or hiding it there is not remembered for wider windows.
 */
const NARROW_WINDOW = '(min-width: 641px) and (max-width: 1000px)';
const narrowWindow = () => typeof matchMedia === 'function' && matchMedia(NARROW_WINDOW).matches;

/** The content of a table or SQL view tab. */
export function ViewHost(props: { projectId: string; tab: Tab }) {
  useSignals();
  const { tab } = props;
  const [meta, setMeta] = useState<TableMeta | null>(null);
  const [error, setError] = useState<string | null>(null);
  // A schema change anywhere reads the table's metadata again (its columns may have changed).
  const generation = schemaGeneration.value;
  const latest = useLatest();
  // A read that failed while the server (or its store) could not be reached is made again once it answers,
  // or when asked (Try again).
  const [attempt, setAttempt] = useState(0);
  const reachable = serverReachable.value;
  useEffect(() => {
    if (error && reachable) setAttempt((n) => n + 1);
  }, [reachable]);
  useEffect(() => {
    void latest(
      dashboardApi.tableMeta(props.projectId, tab.dbAlias, tab.name),
      (m) => (setMeta(m), setError(null)),
      (e) => setError(e.message),
    );
  }, [props.projectId, tab.dbAlias, tab.name, generation, attempt]);
  if (error) {
    return (
      <div className="form-message form-message-error">
        {error}{' '}
        <button className="btn btn-secondary" onClick={() => setAttempt((n) => n + 1)}>{t('common.app.tryAgain')}</button>
      </div>
    );
  }
  if (!meta) return <GridSkeleton label={t('views.host.loadingTable', { name: tab.name })} />;
  return <HostBody projectId={props.projectId} tab={tab} meta={meta} />;
}

function HostBody(props: { projectId: string; tab: Tab; meta: TableMeta }) {
  useSignals();
  const { tab, meta } = props;
  const scope = { projectId: props.projectId, dbAlias: tab.dbAlias };
  const store = useMemo(() => viewsStoreOf(scope, meta.tn), [props.projectId, tab.dbAlias, meta.tn]);
  useEffect(() => {
    store.setColumns(gridColumns(meta));
    void store.load();
  }, [store, meta]);
  // Views changed by someone else (a filter, a sort, fields, a new view) are read again at once.
  useEffect(() => liveConnection(props.projectId).onViews(meta._tn, () => void store.load()), [store, props.projectId, meta._tn]);
  const canEdit = useCanEditViews(props.projectId);
  const [drawer, setDrawer] = useState(() => !narrowWindow() && localStorage.getItem(DRAWER_KEY) !== 'hidden');
  const showDrawer = (open: boolean) => {
    if (!narrowWindow()) localStorage.setItem(DRAWER_KEY, open ? 'shown' : 'hidden');
    setDrawer(open);
  };
  const view = tab.view ? store.byId(tab.view) : store.defaultView();
  // A view's tab is named after it (also after a rename).
  useEffect(() => {
    if (tab.view && view) retitleTab(tab.key, `${tab.name} · ${view.title}`, view.type);
  }, [tab.key, view?.title, view?.type]);
  const viewId = view?.id;
  const canEditNow = useRef(canEdit);
  canEditNow.current = canEdit;
  const binding = useMemo<ViewBinding | undefined>(() => (view ? bindView(store, view, () => canEditNow.current) : undefined), [viewId, canEdit]);
  // Waiting changes are saved when the tab closes.
  useEffect(() => () => void (viewId && store.flush(viewId)), [viewId]);

  let body;
  if (!store.loaded.value) body = <GridSkeleton label={t('views.host.loadingViews')} />;
  else if (store.error.value && !store.list.value.length) {
    body = (
      <>
        <div className="form-message form-message-error">{t('views.host.readFailed', { error: store.error.value })}</div>
        <GridBody projectId={props.projectId} dbAlias={tab.dbAlias} meta={meta} />
      </>
    );
  } else if (!view || !binding) {
    body = tab.view ? (
      <div className="empty-state">
        <h2>{t('views.host.goneTitle')}</h2>
        <p className="muted">{t('views.host.goneText')}</p>
        <button className="btn btn-secondary" onClick={() => closeTab(tab.key)}>{t('views.host.closeTab')}</button>
      </div>
    ) : (
      <GridBody projectId={props.projectId} dbAlias={tab.dbAlias} meta={meta} />
    );
  } else {
    // The key (a new view is a new board) is passed as such: React warns on a key spread from props.
    const key = view.id;
    const common = { projectId: props.projectId, dbAlias: tab.dbAlias, meta, binding: { ...binding, view } };
    body =
      view.type === 'kanban' ? <Kanban key={key} {...common} />
      : view.type === 'calendar' ? <Calendar key={key} {...common} />
      : view.type === 'form' ? <FormView key={key} {...common} />
      : view.type === 'gallery' ? <Gallery key={key} {...common} />
      : <GridBody key={key} {...common} />;
  }
  const Icon = view ? VIEW_ICONS[view.type] : null;
  return (
    <div className="view-host">
      <div className="view-main">
        <div className="view-head">
          {Icon && view ? (
            <h2 className="view-title" data-testid="view-title">
              <Icon size={16} className={`view-icon view-icon-${view.type}`} aria-hidden /> {view.title}
              <span className="muted view-of"> · {meta._tn}</span>
            </h2>
          ) : null}
          <PresenceAvatars table={meta._tn} />
          {!drawer ? (
            <button className="btn btn-ghost" aria-label={t('views.host.showViews')} onClick={() => showDrawer(true)}>
              <PanelRightOpen size={15} aria-hidden /> {t('views.drawer.label')}
            </button>
          ) : null}
        </div>
        {body}
      </div>
      {drawer ? <ViewsDrawer store={store} meta={meta} tab={tab} activeId={view?.id} canEdit={canEdit} onHide={() => showDrawer(false)} /> : null}
    </div>
  );
}
