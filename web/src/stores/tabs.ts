/**
 * Dashboard tabs: one instance per item (reopening activates it), refused past `maxTabs` with the
 * spec's message. Plain TypeScript over signals; the page mirrors the active tab in the URL.
 */
import { batch, computed, signal } from './signals';
import type { ViewType } from '../api/views';
import { t } from '../i18n';

export type TabType = 'table' | 'view' | 'function' | 'procedure' | 'sequence' | 'panel';

export interface Tab {
  key: string;
  type: TabType;
  name: string;
  dbAlias: string;
  title: string;
  /** A saved view of the table (its own tab); none: the table's default view. */
  view?: string;
  /** The kind of that saved view (its tab shows the kind's icon), once known. */
  viewType?: ViewType;
}

export const tabs = signal<Tab[]>([]);
export const activeKey = signal<string | null>(null);
export const maxTabs = signal<number>(99);
export const activeTab = computed(() => tabs.value.find((t) => t.key === activeKey.value) ?? null);

export const tabKey = (type: TabType, dbAlias: string, name: string) => `${type}:${dbAlias}:${name}`;
/** Why a tab did not open: the spec's wording, in the current language. */
export const maxTabsMessage = (n: number) => t('common.tabs.limit', { n });

/** Opens (or activates) a tab; answers the refusal message when the limit is reached. */
export function openTab(t: Omit<Tab, 'key'>): string | null {
  const key = tabKey(t.type, t.dbAlias, t.name) + (t.view ? `#${t.view}` : '');
  if (tabs.value.some((x) => x.key === key)) {
    activeKey.value = key;
    return null;
  }
  if (tabs.value.length >= maxTabs.value) return maxTabsMessage(maxTabs.value);
  tabs.value = [...tabs.value, { ...t, key }];
  activeKey.value = key;
  return null;
}

export function closeTab(key: string): void {
  const i = tabs.value.findIndex((t) => t.key === key);
  if (i < 0) return;
  const next = tabs.value.filter((t) => t.key !== key);
  // One change: no moment with the closed tab still active (no tab shown, an empty address in between).
  batch(() => {
    tabs.value = next;
    if (activeKey.value === key) activeKey.value = next[Math.min(i, next.length - 1)]?.key ?? null;
  });
}

export function resetTabs(): void {
  tabs.value = [];
  activeKey.value = null;
}

/** After a table is renamed: its tab follows the new name (and stays active if it was). */
export function renameTabs(dbAlias: string, from: string, to: string): void {
  if (from === to) return;
  const oldKey = tabKey('table', dbAlias, from);
  const newKey = tabKey('table', dbAlias, to);
  const moved = (k: string) => (k === oldKey ? newKey : k.startsWith(`${oldKey}#`) ? newKey + k.slice(oldKey.length) : k);
  tabs.value = tabs.value.map((t) => (moved(t.key) !== t.key ? { ...t, key: moved(t.key), name: to, title: t.view ? to + t.title.slice(from.length) : to } : t));
  if (activeKey.value) activeKey.value = moved(activeKey.value);
}

/** After a table is deleted: its tab closes. */
export function closeTableTab(dbAlias: string, name: string): void {
  closeTab(tabKey('table', dbAlias, name));
  for (const t of tabs.value) if (t.type === 'table' && t.dbAlias === dbAlias && t.name === name) closeTab(t.key);
}

/** Sets a tab's title and view kind (a saved view's tab, once the view is known or after a rename). */
export function retitleTab(key: string, title: string, viewType?: ViewType): void {
  const kind = (t: Tab) => viewType ?? t.viewType;
  if (tabs.value.some((t) => t.key === key && (t.title !== title || t.viewType !== kind(t)))) tabs.value = tabs.value.map((t) => (t.key === key ? { ...t, title, viewType: kind(t) } : t));
}
