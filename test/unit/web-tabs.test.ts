/** The dashboard tab store: one instance per item, activation on reopen, the maxTabs limit. */
import { beforeEach, expect, test } from 'bun:test';
import { inLocale } from '../helpers/web-locale';
import { activeKey, activeTab, closeTab, maxTabs, maxTabsMessage, openTab, resetTabs, tabs } from '../../web/src/stores/tabs';

beforeEach(() => {
  resetTabs();
  maxTabs.value = 99;
});

test('reopening a tab activates it instead of adding another', () => {
  openTab({ type: 'table', name: 'Track', dbAlias: 'db', title: 'Track' });
  openTab({ type: 'table', name: 'Album', dbAlias: 'db', title: 'Album' });
  expect(openTab({ type: 'table', name: 'Track', dbAlias: 'db', title: 'Track' })).toBeNull();
  expect(tabs.value.length).toBe(2);
  expect(activeTab.value?.name).toBe('Track');
});

test('past maxTabs the spec message is answered and nothing opens', () => {
  maxTabs.value = 2;
  openTab({ type: 'table', name: 'A', dbAlias: 'db', title: 'A' });
  openTab({ type: 'view', name: 'B', dbAlias: 'db', title: 'B' });
  expect(openTab({ type: 'function', name: 'C', dbAlias: 'db', title: 'C' })).toBe('Free plan limits to 2 tabs. Please upgrade your plan for unlimited tabs.');
  expect(tabs.value.length).toBe(2);
  expect(maxTabsMessage(99)).toContain('99 tabs');
});

test('closing the active tab activates its neighbour', () => {
  openTab({ type: 'table', name: 'A', dbAlias: 'db', title: 'A' });
  openTab({ type: 'table', name: 'B', dbAlias: 'db', title: 'B' });
  closeTab(activeKey.value!);
  expect(activeTab.value?.name).toBe('A');
  closeTab(activeKey.value!);
  expect(activeKey.value).toBeNull();
});

test('the refusal past maxTabs is said in the current language', () => {
  maxTabs.value = 2;
  openTab({ type: 'table', name: 'A', dbAlias: 'db', title: 'A' });
  openTab({ type: 'table', name: 'B', dbAlias: 'db', title: 'B' });
  inLocale('fr', () => expect(openTab({ type: 'table', name: 'C', dbAlias: 'db', title: 'C' })).toBe('L’offre gratuite limite à 2 onglets. Passez à une offre supérieure pour des onglets illimités.'));
  inLocale('zh_CN', () => expect(maxTabsMessage(3)).toContain('3 个标签页'));
});
