/**
 * The views drawer of a table: its saved views (each opens in its own tab), creating a Grid,
 * Gallery, Kanban, Calendar or Form view, and per view Rename, Copy, Move up or down, Share and Delete (owners,
 * creators and editors; other readers list and open views).
 */
import { useEffect, useState } from 'react';
import { Button as AriaButton, Menu, MenuItem, MenuTrigger, Popover } from 'react-aria-components';
import { CalendarDays, ClipboardList, Ellipsis, LayoutGrid, Link2, Lock, PanelRightClose, SquareKanban, Table2, type LucideIcon } from 'lucide-react';
import type { TableMeta } from '../../api/dashboard';
import { VIEW_TYPES, type SavedView, type SharedLink, type ViewType } from '../../api/views';
import { useSignals } from '../../stores/signals';
import { closeTab, openTab, tabs, type Tab } from '../../stores/tabs';
import { toast } from '../../stores/toasts';
import { track } from '../../stores/notifications';
import { ConfirmDialog } from '../../components/overlays';
import { AriaDialog } from '../../components/aria-dialog';
import { FormMessage } from '../../components/form';
import { CreateViewDialog } from './create-view-dialog';
import { IconButton } from './icon-button';
import { ShareDialog } from '../shared/share-dialog';
import { viewLabel, type ViewsStore } from './views-store';
import { t } from '../../i18n';

/** The icon of each kind. */
export const VIEW_ICONS: Record<ViewType, LucideIcon> = { grid: Table2, gallery: LayoutGrid, kanban: SquareKanban, calendar: CalendarDays, form: ClipboardList };

/** Opens a view in its tab: the table's default view in the table's own tab, others in one each. */
export function openViewTab(tab: Pick<Tab, 'type' | 'name' | 'dbAlias'>, view: SavedView, isDefault: boolean): void {
  const refused = isDefault
    ? openTab({ type: tab.type, name: tab.name, dbAlias: tab.dbAlias, title: tab.name })
    : openTab({ type: tab.type, name: tab.name, dbAlias: tab.dbAlias, title: `${tab.name} · ${view.title}`, view: view.id, viewType: view.type });
  if (refused) toast('error', refused, 5000);
}

type Dialog = { kind: 'create'; type: ViewType } | { kind: 'copy' | 'rename' | 'delete' | 'share'; view: SavedView } | null;

/** The drawer beside a view tab; `canEdit` shows creating and the view menus. */
export function ViewsDrawer(props: { store: ViewsStore; meta: TableMeta; tab: Tab; activeId: string | undefined; canEdit: boolean; onHide: () => void }) {
  useSignals();
  const { store, meta, tab } = props;
  const [dialog, setDialog] = useState<Dialog>(null);
  const [dragging, setDragging] = useState<number | null>(null);
  const views = store.list.value;
  const defaultId = store.defaultView()?.id;
  const open = (v: SavedView) => openViewTab(tab, v, v.id === defaultId);
  const move = (from: number, to: number) => void track(t('views.drawer.reorder'), store.reorder(from, to)).catch(() => {});
  useEffect(() => {
    if (props.canEdit) void store.loadLinks();
  }, [store, props.canEdit, dialog === null]);
  return (
    <aside className="views-drawer" aria-label={t('views.drawer.label')}>
      <div className="views-drawer-head">
        <strong>{t('views.drawer.label')}</strong>
        <IconButton label={t('views.drawer.hide')} onPress={props.onHide}>
          <PanelRightClose size={16} />
        </IconButton>
      </div>
      <ul className="views-list" aria-label={t('views.drawer.saved')}>
        {views.map((v, i) => {
          const Icon = VIEW_ICONS[v.type] ?? Table2;
          return (
            <li
              key={v.id}
              className={`views-item${v.id === props.activeId ? ' active' : ''}${dragging === i ? ' dragging' : ''}`}
              draggable={props.canEdit}
              onDragStart={(e) => (setDragging(i), e.dataTransfer.setData('text/plain', v.title))}
              onDragOver={(e) => dragging !== null && e.preventDefault()}
              onDrop={(e) => {
                e.preventDefault();
                if (dragging !== null && dragging !== i) move(dragging, i);
                setDragging(null);
              }}
              onDragEnd={() => setDragging(null)}
            >
              <button className="views-open" aria-current={v.id === props.activeId ? 'page' : undefined} onClick={() => open(v)}>
                <Icon size={15} className={`view-icon view-icon-${v.type}`} aria-hidden />
                {/* A long name (the default view's in Portuguese) is cut to the drawer's width: whole on hover. */}
                <span className="views-title" title={v.title}>{v.title}</span>
                <LinkMark link={store.links.value.find((l) => l.view_id === v.id)} />
              </button>
              {props.canEdit ? (
                <MenuTrigger>
                  <AriaButton className="icon-plain views-menu-btn" aria-label={t('views.drawer.menuOf', { title: v.title })}>
                    <Ellipsis size={15} />
                  </AriaButton>
                  <Popover placement="bottom end" className="aria-popover">
                    <Menu
                      className="menu-list aria-menu"
                      aria-label={t('views.drawer.menuLabel', { title: v.title })}
                      onAction={(key) => (key === 'up' || key === 'down' ? move(i, key === 'up' ? i - 1 : i + 1) : setDialog({ kind: key as 'copy' | 'rename' | 'delete' | 'share', view: v }))}
                    >
                      <MenuItem id="rename" className="menu-item">{t('views.drawer.rename')}</MenuItem>
                      <MenuItem id="copy" className="menu-item">{t('views.drawer.copy')}</MenuItem>
                      {/* The keyboard's way to reorder (the list is dragged with a pointer). */}
                      {i > 0 ? <MenuItem id="up" className="menu-item">{t('views.drawer.moveUp')}</MenuItem> : null}
                      {i < views.length - 1 ? <MenuItem id="down" className="menu-item">{t('views.drawer.moveDown')}</MenuItem> : null}
                      <MenuItem id="share" className="menu-item">{t('views.drawer.share')}</MenuItem>
                      {v.id !== defaultId ? <MenuItem id="delete" className="menu-item menu-danger">{t('views.drawer.delete')}</MenuItem> : null}
                    </Menu>
                  </Popover>
                </MenuTrigger>
              ) : null}
            </li>
          );
        })}
      </ul>
      {store.error.value ? <FormMessage kind="error" text={store.error.value} /> : null}
      {props.canEdit ? (
        <div className="views-create">
          <div className="muted views-create-head">{t('views.drawer.createHead')}</div>
          {VIEW_TYPES.map((type) => {
            const Icon = VIEW_ICONS[type];
            return (
              <button key={type} className="views-create-btn" onClick={() => setDialog({ kind: 'create', type })}>
                <Icon size={15} className={`view-icon view-icon-${type}`} aria-hidden /> {viewLabel(type)}
              </button>
            );
          })}
        </div>
      ) : null}
      {dialog?.kind === 'create' || dialog?.kind === 'copy' ? (
        <CreateViewDialog
          store={store}
          meta={meta}
          type={dialog.kind === 'create' ? dialog.type : dialog.view.type}
          copyOf={dialog.kind === 'copy' ? dialog.view : undefined}
          onClose={() => setDialog(null)}
          onDone={(v) => {
            setDialog(null);
            open(v);
          }}
        />
      ) : null}
      {dialog?.kind === 'rename' ? <RenameDialog store={store} view={dialog.view} onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'delete' ? (
        <ConfirmDialog
          heading={t('views.delete.heading', { title: dialog.view.title })}
          submitLabel={t('views.drawer.delete')}
          onCancel={() => setDialog(null)}
          onSubmit={() => {
            const v = dialog.view;
            setDialog(null);
            void track(t('views.delete.track', { title: v.title }), store.remove(v))
              .then(() => tabs.value.filter((t) => t.view === v.id).forEach((t) => closeTab(t.key)))
              .catch(() => {});
          }}
        >
          <p>{t('views.delete.body', { title: dialog.view.title })}</p>
        </ConfirmDialog>
      ) : null}
      {dialog?.kind === 'share' ? <ShareDialog scope={store.scope} tn={meta.tn} view={dialog.view} onClose={() => setDialog(null)} /> : null}
    </aside>
  );
}

function RenameDialog(props: { store: ViewsStore; view: SavedView; onClose: () => void }) {
  const [title, setTitle] = useState(props.view.title);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const name = title.trim();
    if (!name) return setError(t('views.create.titleNeeded'));
    if (props.store.list.value.some((v) => v.id !== props.view.id && v.title.toLowerCase() === name.toLowerCase())) return setError(t('views.create.titleTaken', { title: name }));
    setBusy(true);
    try {
      await props.store.rename(props.view, name);
      props.onClose();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <AriaDialog heading={t('views.rename.heading', { title: props.view.title })} onClose={props.onClose} onSubmit={() => void submit()} submitLabel={t('views.drawer.rename')} busy={busy}>
      <div className="field">
        <label>
          {t('views.create.viewName')}
          <input aria-label={t('views.create.viewName')} value={title} autoFocus onChange={(e) => (setTitle(e.target.value), setError(null))} />
        </label>
      </div>
      <FormMessage kind="error" text={error} />
    </AriaDialog>
  );
}

/** Marks a view shared by link (a lock when the link has a password). */
function LinkMark(props: { link: SharedLink | undefined }) {
  if (!props.link) return null;
  const label = props.link.hasPassword ? t('views.drawer.sharedWithPassword') : t('views.drawer.shared');
  const Icon = props.link.hasPassword ? Lock : Link2;
  return (
    <span className="views-shared" role="img" aria-label={label} title={label}>
      <Icon size={12} aria-hidden />
    </span>
  );
}
