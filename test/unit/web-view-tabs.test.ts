/** Saved views in tabs: each view its own tab beside the table's, renamed with the table, closed with it, titled after the view. */
import { beforeEach, expect, test } from 'bun:test';
import { activeKey, activeTab, closeTableTab, openTab, renameTabs, resetTabs, retitleTab, tabs } from '../../web/src/stores/tabs';

beforeEach(() => resetTabs());

test('a view opens in its own tab; reopening it activates it', () => {
  openTab({ type: 'table', name: 'Track', dbAlias: 'db', title: 'Track' });
  openTab({ type: 'table', name: 'Track', dbAlias: 'db', title: 'Track · Stages', view: 'vw_1' });
  openTab({ type: 'table', name: 'Track', dbAlias: 'db', title: 'Track' });
  expect(tabs.value.map((t) => t.key)).toEqual(['table:db:Track', 'table:db:Track#vw_1']);
  expect(activeTab.value?.view).toBeUndefined();
  openTab({ type: 'table', name: 'Track', dbAlias: 'db', title: 'Track · Stages', view: 'vw_1' });
  expect(activeTab.value?.view).toBe('vw_1');
  expect(tabs.value).toHaveLength(2);
});

test("renaming a table carries its view tabs; deleting it closes them; a view's tab takes the view's name", () => {
  openTab({ type: 'table', name: 'Track', dbAlias: 'db', title: 'Track' });
  openTab({ type: 'table', name: 'Track', dbAlias: 'db', title: 'Track · Stages', view: 'vw_1' });
  openTab({ type: 'table', name: 'Album', dbAlias: 'db', title: 'Album' });
  activeKey.value = 'table:db:Track#vw_1';
  renameTabs('db', 'Track', 'Song');
  expect(tabs.value.map((t) => [t.key, t.title])).toEqual([['table:db:Song', 'Song'], ['table:db:Song#vw_1', 'Song · Stages'], ['table:db:Album', 'Album']]);
  expect(activeKey.value).toBe('table:db:Song#vw_1');
  retitleTab('table:db:Song#vw_1', 'Song · Lanes');
  expect(tabs.value[1]!.title).toBe('Song · Lanes');
  closeTableTab('db', 'Song');
  expect(tabs.value.map((t) => t.key)).toEqual(['table:db:Album']);
});
