/**
 * GraphiQL's own interface text is English only: here it is said in the current language. Its
 * English labels map to our messages, applied to the text, aria-label, title and placeholder of what
 * GraphiQL renders and kept applied as it renders again (a MutationObserver); names from the schema
 * or the queries (types, fields, tab and history names) are left as they are. Its editors' hidden
 * text areas get names too (GraphiQL leaves them unnamed).
 */
import { t, type MessageKey } from '../../i18n';

const LABELS: Record<string, MessageKey> = {
  'Show Documentation Explorer': 'tools.graphiql.showDocs',
  'Hide Documentation Explorer': 'tools.graphiql.hideDocs',
  'Documentation Explorer': 'tools.graphiql.docs',
  'Show History': 'tools.graphiql.showHistory',
  'Hide History': 'tools.graphiql.hideHistory',
  History: 'tools.graphiql.history',
  'Re-fetch GraphQL schema': 'tools.graphiql.refetch',
  'Open short keys dialog': 'tools.graphiql.openShortKeys',
  'Open settings dialog': 'tools.graphiql.openSettings',
  'Execute query (Ctrl-Enter)': 'tools.graphiql.executeKeys',
  'Prettify query (Shift-Ctrl-P)': 'tools.graphiql.prettifyKeys',
  'Merge fragments into query (Shift-Ctrl-M)': 'tools.graphiql.mergeKeys',
  'Copy query (Shift-Ctrl-C)': 'tools.graphiql.copyKeys',
  'New tab': 'tools.graphiql.newTab',
  'Close Tab': 'tools.graphiql.closeTab',
  'Select active operation': 'tools.graphiql.selectOperation',
  'Query Editor': 'tools.graphiql.queryEditor',
  'Result Window': 'tools.graphiql.result',
  'Hide editor tools': 'tools.graphiql.hideTools',
  'Show editor tools': 'tools.graphiql.showTools',
  'Editor Commands': 'tools.graphiql.editorCommands',
  Variables: 'tools.graphiql.variables',
  Headers: 'tools.graphiql.headers',
  '<untitled>': 'tools.graphiql.untitled',
  'Root Types': 'tools.graphiql.rootTypes',
  'All Schema Types': 'tools.graphiql.allTypes',
  'A GraphQL schema provides a root type for each kind of operation.': 'tools.graphiql.rootTypesHelp',
  'Search Docs...': 'tools.graphiql.searchDocs',
  Fields: 'tools.graphiql.fields',
  Arguments: 'tools.graphiql.arguments',
  Type: 'tools.graphiql.type',
  Implements: 'tools.graphiql.implements',
  'Enum Values': 'tools.graphiql.enumValues',
  Directives: 'tools.graphiql.directives',
  'Deprecated Fields': 'tools.graphiql.deprecatedFields',
  'Deprecated Arguments': 'tools.graphiql.deprecatedArguments',
  'Deprecated Enum Values': 'tools.graphiql.deprecatedEnumValues',
  Settings: 'tools.graphiql.settings',
  'Short Keys': 'tools.graphiql.shortKeys',
  'Short Key': 'tools.graphiql.shortKey',
  Function: 'tools.graphiql.function',
  'Execute query': 'tools.graphiql.execute',
  'Prettify editors': 'tools.graphiql.prettify',
  'Merge fragments definitions into operation definition': 'tools.graphiql.merge',
  'Copy query': 'tools.graphiql.copy',
  'Re-fetch schema using introspection': 'tools.graphiql.refetchHelp',
  'Search in documentation': 'tools.graphiql.searchInDocs',
  'Search in editor': 'tools.graphiql.searchInEditor',
  'Clear storage': 'tools.graphiql.clearStorage',
  'Remove all locally stored data and start fresh.': 'tools.graphiql.clearStorageHelp',
  'Clear data': 'tools.graphiql.clearData',
  'Close dialog': 'tools.graphiql.closeDialog',
  'Delete from history': 'tools.graphiql.deleteFromHistory',
  'Edit label': 'tools.graphiql.editLabel',
  'Set active': 'tools.graphiql.setActive',
  'Type a label': 'tools.graphiql.typeLabel',
};

/** The English texts GraphiQL shows that are said in the current language. */
export const GRAPHIQL_ENGLISH = Object.keys(LABELS);

const ATTRIBUTES = ['aria-label', 'title', 'placeholder'];
/** Where the text is a name from the schema or the queries, not GraphiQL's own. */
const NAMES = '.CodeMirror, .graphiql-doc-explorer-type-name, .graphiql-doc-explorer-field-name, .graphiql-doc-explorer-argument-name, .graphiql-history-item, .graphiql-tab-button';

function said(english: string | null | undefined): string | null {
  const key = english ? LABELS[english.trim()] : undefined;
  return key ? t(key) : null;
}

function localizeText(node: Text) {
  const parent = node.parentElement;
  const value = node.nodeValue ?? '';
  if (!parent || (parent.closest(NAMES) && value.trim() !== '<untitled>')) return;
  const text = said(value);
  if (text !== null && text !== value.trim()) node.nodeValue = value.replace(value.trim(), text);
}

function localizeElement(el: Element) {
  if (el.closest('.CodeMirror')) {
    if (el.tagName === 'TEXTAREA' && !el.hasAttribute('aria-label')) el.setAttribute('aria-label', editorName(el));
    return;
  }
  for (const a of ATTRIBUTES) {
    const text = said(el.getAttribute(a));
    if (text !== null && text !== el.getAttribute(a)) el.setAttribute(a, text);
  }
}

/** The name of an editor's hidden text area: query, variables, headers or result. */
function editorName(textarea: Element): string {
  if (textarea.closest('.graphiql-query-editor')) return t('tools.graphiql.queryEditor');
  if (textarea.closest('.graphiql-response')) return t('tools.graphiql.result');
  const editor = textarea.closest('.graphiql-editor');
  const tools = editor?.parentElement ? [...editor.parentElement.children].filter((c) => c.classList.contains('graphiql-editor')) : [];
  return t(tools.indexOf(editor!) === 1 ? 'tools.graphiql.headers' : 'tools.graphiql.variables');
}

function localizeTree(root: Node) {
  if (root.nodeType === Node.TEXT_NODE) return localizeText(root as Text);
  if (root.nodeType !== Node.ELEMENT_NODE) return;
  localizeElement(root as Element);
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.nodeType === Node.TEXT_NODE) localizeText(n as Text);
    else localizeElement(n as Element);
  }
}

/** GraphiQL's own elements: under its root, or in the dialogs, menus and tooltips it renders at the end of the body. */
const inScope = (root: HTMLElement, el: Element | null): boolean => !!el && (root.contains(el) || !!el.closest('[class*="graphiql-"]'));

/** Says GraphiQL's text in the current language, now and as it changes; answers the function that stops it. */
export function localizeGraphiql(root: HTMLElement): () => void {
  localizeTree(root);
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'childList') r.addedNodes.forEach((n) => (inScope(root, n.nodeType === Node.ELEMENT_NODE ? (n as Element) : n.parentElement) || (n as Element).querySelector?.('[class*="graphiql-"]')) && localizeTree(n));
      else if (r.type === 'characterData') inScope(root, r.target.parentElement) && localizeText(r.target as Text);
      else inScope(root, r.target as Element) && localizeElement(r.target as Element);
    }
  });
  observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ATTRIBUTES });
  return () => observer.disconnect();
}
