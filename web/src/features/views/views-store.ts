/**
 * The saved views of one table, shared by the views drawer and the view tabs: listed once, changed
 * through the xcVirtualTable* operations. Changes to a view's query_params apply at once on screen
 * and are saved shortly after (one call for a burst of changes, e.g. a column being resized).
 */
import { viewsApi, type QueryParams, type SavedView, type SharedLink, type ViewScope, type ViewType } from '../../api/views';
import { signal } from '../../stores/signals';
import { toast } from '../../stores/toasts';
import { aliasQueryParams } from './view-state';
import { LIMITS } from '../../lib/limits';
import { t } from '../../i18n';
import { latestOnly } from '../../lib/latest';
import { mergeChanges } from './merge-query-params';

/** Milliseconds a view change waits for more before it is saved. */
export const SAVE_DELAY_MS = LIMITS.viewSaveDelayMs;

/** The label of a kind, as the drawer shows it, in the current language. */
export function viewLabel(type: ViewType): string {
  switch (type) {
    case 'gallery':
      return t('views.kind.gallery');
    case 'kanban':
      return t('views.kind.kanban');
    case 'calendar':
      return t('views.kind.calendar');
    case 'form':
      return t('views.kind.form');
    default:
      return t('views.kind.grid');
  }
}

/** The title the server gives a table's own view (src/meta/views-repo.ts DEFAULT_VIEW_TITLE). */
const SERVER_DEFAULT_TITLE = 'Grid view'; // i18n-ignore

/** A view's title as shown: the table's own view, while nobody renamed it, in the reader's language (it read English in every one). */
export function shownViewTitle(title: string, isDefault: boolean | undefined): string {
  return isDefault && title === SERVER_DEFAULT_TITLE ? t('views.drawer.defaultTitle') : title;
}
const shownTitle = (v: SavedView): string => shownViewTitle(v.title, v.is_default);

/** The views of one table. */
export class ViewsStore {
  readonly list = signal<SavedView[]>([]);
  readonly loaded = signal(false);
  readonly error = signal<string | null>(null);
  /** The table's shared links (read for people who may change views). */
  readonly links = signal<SharedLink[]>([]);
  private timers = new Map<string, ReturnType<typeof setTimeout>>();
  private pending = new Map<string, QueryParams>();
  /** Changes whose save is on its way: a list read answered meanwhile may not hold them yet. */
  private saving = new Map<string, QueryParams>();
  /**
   * Changes of a reader who may not save them: kept on their screen when the list is read again,
   * until someone who may save changes the view (`base`: the server's query_params they were made over).
   */
  private local = new Map<string, { qp: QueryParams; base: string }>();
  /** The query_params each waiting change was made over (as shown then): what this screen changed is told from what it was shown. */
  private bases = new Map<string, QueryParams>();
  /** The save of each view on its way: the next one waits for it. */
  private flushing = new Map<string, Promise<void>>();
  /** The query_params of each view as the server last answered them (JSON). */
  private server = new Map<string, string>();
  /** Reads of the list and of the links: a read answered after a later one is dropped. */
  private lists = latestOnly();
  private linkReads = latestOnly();

  /** The table's columns: views come with SQL names and are shown by API names. */
  private columns: { cn: string; _cn: string }[] = [];

  constructor(readonly scope: ViewScope, readonly tn: string) {}

  setColumns(columns: { cn: string; _cn: string }[]): void {
    this.columns = columns;
  }

  /** Reads the list (the server makes the default Grid view of a table that has none). */
  async load(): Promise<void> {
    await this.lists(
      viewsApi.list(this.scope, this.tn),
      (list) => {
        for (const v of list) {
          const json = JSON.stringify(v.query_params ?? {});
          this.server.set(v.id, json);
          // The view was changed by someone who may save it: the reader sees that, not their own older change.
          if (this.local.get(v.id) && this.local.get(v.id)!.base !== json) this.local.delete(v.id);
        }
        // Changes made on screen and not saved yet (or still saving) stay over what the server answered.
        const unsaved = (id: string) => this.pending.get(id) ?? this.saving.get(id) ?? this.local.get(id)?.qp;
        this.list.value = sortViews(list.map((v) => ({ ...v, title: shownTitle(v), query_params: unsaved(v.id) ?? aliasQueryParams(v.query_params ?? {}, this.columns) })));
        this.error.value = null;
        this.loaded.value = true;
      },
      (e) => {
        this.error.value = e.message;
        this.loaded.value = true;
      },
    );
  }

  /** Reads the table's shared links (the drawer marks shared views); quietly empty when refused. */
  async loadLinks(): Promise<void> {
    await this.linkReads(viewsApi.links(this.scope, this.tn), (links) => (this.links.value = links), () => (this.links.value = []));
  }

  byId(id: string | undefined | null): SavedView | undefined {
    return id ? this.list.value.find((v) => v.id === id) : undefined;
  }

  /** The view a table's own tab shows: its default view (else its first Grid view). */
  defaultView(): SavedView | undefined {
    return this.list.value.find((v) => v.is_default) ?? this.list.value.find((v) => v.type === 'grid') ?? this.list.value[0];
  }

  /** Creates a view (or a copy of `from`, keeping everything of it); answers it. */
  async create(type: ViewType, title: string, from?: SavedView, query_params?: QueryParams): Promise<SavedView> {
    const made = await viewsApi.create(this.scope, { tn: this.tn, title, type, ...(from ? { copy_from_id: from.id } : {}), ...(query_params ? { query_params } : {}) });
    await this.load();
    return this.byId(made.id) ?? { id: made.id, title: made.title, type: made.type, tn: this.tn, order: this.list.value.length, query_params: from?.query_params ?? query_params ?? {} };
  }

  async rename(view: SavedView, title: string): Promise<void> {
    await viewsApi.update(this.scope, { id: view.id, title });
    this.replace({ ...view, title });
  }

  async remove(view: SavedView): Promise<void> {
    await viewsApi.remove(this.scope, view.id);
    this.list.value = this.list.value.filter((v) => v.id !== view.id);
  }

  /** Moves a view to position `to` of the list and saves every order that changed. */
  async reorder(from: number, to: number): Promise<void> {
    const next = this.list.value.slice();
    const [v] = next.splice(from, 1);
    if (!v) return;
    next.splice(to, 0, v);
    const changed = next.map((x, i) => ({ ...x, order: i })).filter((x, i) => this.list.value.find((y) => y.id === x.id)?.order !== i);
    this.list.value = next.map((x, i) => ({ ...x, order: i }));
    try {
      await Promise.all(changed.map((x) => viewsApi.update(this.scope, { id: x.id, order: x.order })));
    } catch (e) {
      // Refused (or half saved): the list shows the order the server keeps.
      await this.load();
      throw e;
    }
  }

  /**
   * Changes a view's query_params: on screen at once, saved after SAVE_DELAY_MS. `canSave` false
   * (a reader) keeps the change on screen only.
   */
  change(view: SavedView, patch: Partial<QueryParams>, canSave: boolean): SavedView {
    const current = this.byId(view.id) ?? view;
    const next = { ...current, query_params: { ...current.query_params, ...patch } };
    this.replace(next);
    if (!canSave) {
      this.local.set(view.id, { qp: next.query_params, base: this.local.get(view.id)?.base ?? this.server.get(view.id) ?? '' });
      return next;
    }
    if (!this.bases.has(view.id)) this.bases.set(view.id, current.query_params);
    this.pending.set(view.id, next.query_params);
    clearTimeout(this.timers.get(view.id));
    this.timers.set(view.id, setTimeout(() => void this.flush(view.id), SAVE_DELAY_MS));
    return next;
  }

  /** Saves every waiting change now (the page is being left: the calls outlive it). */
  flushAll(): void {
    for (const id of [...this.pending.keys()]) void this.flush(id, true);
  }

  /** Saves a view's waiting change now (after the save of this view already on its way, which the next one reads). */
  flush(id: string, keepalive = false): Promise<void> {
    clearTimeout(this.timers.get(id));
    this.timers.delete(id);
    if (keepalive) return this.save(id, true);
    const next = (this.flushing.get(id) ?? Promise.resolve()).then(() => this.save(id, false));
    this.flushing.set(id, next);
    void next.then(() => this.flushing.get(id) === next && this.flushing.delete(id));
    return next;
  }

  /** Saves a view's waiting change. */
  private async save(id: string, keepalive: boolean): Promise<void> {
    let qp = this.pending.get(id);
    if (!qp) return;
    let shown = qp;
    this.pending.delete(id);
    this.saving.set(id, shown);
    // Changes made from here on are told from what the screen shows then.
    const base = this.bases.get(id);
    this.bases.delete(id);
    try {
      // Someone else may have changed the view meanwhile: only what changed here is laid over what the server holds now
      // (not when the page is being left: the save must go at once).
      if (base && !keepalive) {
        const now = (await viewsApi.list(this.scope, this.tn)).find((v) => v.id === id);
        if (now) {
          qp = shown = mergeChanges(base, qp, aliasQueryParams(now.query_params ?? {}, this.columns));
          if (this.saving.get(id)) this.saving.set(id, shown);
        }
      }
      // A redirect address being typed is kept on screen and saved once it is a web address.
      if (qp.form?.redirectUrl && !/^https?:\/\/\S+$/i.test(qp.form.redirectUrl)) qp = { ...qp, form: { ...qp.form, redirectUrl: undefined } };
      await viewsApi.update(this.scope, { id, query_params: qp }, keepalive);
    } catch (e) {
      toast('error', t('views.store.saveFailed', { error: (e as Error).message }));
    } finally {
      if (this.saving.get(id) === shown) this.saving.delete(id);
    }
  }

  private replace(view: SavedView): void {
    this.list.value = this.list.value.map((v) => (v.id === view.id ? view : v));
  }
}

/** Views in their order (ties by title). */
export function sortViews(list: SavedView[]): SavedView[] {
  return list.slice().sort((a, b) => (a.order ?? 0) - (b.order ?? 0) || a.title.localeCompare(b.title));
}

const stores = new Map<string, ViewsStore>();

/** The one store of a table's views (the drawer and every tab of the table share it). */
export function viewsStoreOf(scope: ViewScope, tn: string): ViewsStore {
  const key = `${scope.projectId}\u0000${scope.dbAlias}\u0000${tn}`;
  let s = stores.get(key);
  if (!s) stores.set(key, (s = new ViewsStore(scope, tn)));
  return s;
}

// A change made just before the page is left or reloaded is still saved.
if (typeof window !== 'undefined') window.addEventListener('pagehide', () => stores.forEach((s) => s.flushAll()));

/** A title not used by another view of the table: 'Kanban', 'Kanban 2', ... */
export function freeTitle(base: string, taken: string[]): string {
  const used = new Set(taken.map((t) => t.toLowerCase()));
  if (!used.has(base.toLowerCase())) return base;
  for (let n = 2; ; n++) if (!used.has(`${base} ${n}`.toLowerCase())) return `${base} ${n}`;
}
