/**
 * GraphQL Client: GraphiQL 4 (CodeMirror 5 inside, no web workers: it bundles into the binary with
 * Bun's bundler; see docs/features/sqlclient.md) against the project's `/nc/{projectId}/v1/graphql`
 * with the caller's auth header prefilled in the headers editor. Docs and completion come from
 * introspection; variables, headers, tabs and history are GraphiQL's own, kept per project in
 * localStorage. Rights apply as for any caller: a hidden column answers FORBIDDEN.
 */
import { useEffect, useMemo, useRef } from 'react';
import { GraphiQL } from 'graphiql';
import { createGraphiQLFetcher, type Fetcher, type Storage } from '@graphiql/toolkit';
import 'graphiql/style.css';
import './graphql-client.css';
import { useSignals } from '../../stores/signals';
import { darkTheme } from '../../stores/settings';
import { masterKey, token } from '../../stores/session';
import { previewAs } from '../../stores/preview';
import { intlFor, LOCALES, locale, t } from '../../i18n';
import { localizeGraphiql } from './graphiql-labels';
import { requestHeaders, type SeenTokens } from './request-headers';
import { appUrl } from '../../api/app-url';

/** The first query of a new tab: two comment lines in the current language. */
const defaultQuery = () => `# ${t('tools.graphql.defaultQueryLine1')}\n# ${t('tools.graphql.defaultQueryLine2')}\nquery {\n  __typename\n}\n`;

/** The first query as another language says it (to be said again in the current one). */
const defaultQueryIn = (code: (typeof LOCALES)[number]['code']) => {
  const intl = intlFor(code);
  return `# ${intl.formatMessage({ id: 'tools.graphql.defaultQueryLine1' })}\n# ${intl.formatMessage({ id: 'tools.graphql.defaultQueryLine2' })}\nquery {\n  __typename\n}\n`;
};

/** A first query left as it was written, in any language: said in the current one. */
function relocalizedQuery(query: string | null | undefined): string | null | undefined {
  return query && LOCALES.some((l) => defaultQueryIn(l.code) === query) ? defaultQuery() : query;
}

/**
 * What GraphiQL reads back (its tabs and its last query), with a first query left as it was written
 * (in the language of the day the tab was made) said in the current language, as the SQL Client's
 * temporary editors are. Both are read, so the tab and the last query still match (else GraphiQL
 * opens one more tab).
 */
function relocalized(key: string, saved: string | null): string | null {
  if (!saved) return saved;
  if (key === 'graphiql:query') return relocalizedQuery(saved) ?? saved;
  if (key !== 'graphiql:tabState') return saved;
  try {
    const state = JSON.parse(saved) as { tabs?: { query?: string | null }[] };
    for (const tab of state.tabs ?? []) tab.query = relocalizedQuery(tab.query);
    return JSON.stringify(state);
  } catch {
    return saved;
  }
}

/** localStorage seen through a prefix, so each project keeps its own tabs and history. */
function prefixedStorage(prefix: string): Storage {
  const keys = () => Object.keys(localStorage).filter((k) => k.startsWith(prefix));
  return {
    getItem: (k) => relocalized(k, localStorage.getItem(prefix + k)),
    setItem: (k, v) => localStorage.setItem(prefix + k, v),
    removeItem: (k) => localStorage.removeItem(prefix + k),
    clear: () => keys().forEach((k) => localStorage.removeItem(k)),
    get length() {
      return keys().length;
    },
  };
}

/** Session tokens this page has sent or shown in a headers editor. */
const seenTokens: SeenTokens = new Set();

/** The headers the web app itself sends: the session token (or master key) and a previewed role. */
function callerHeaders(): Record<string, string> {
  const h: Record<string, string> = {};
  if (masterKey.value) h['xc-master-key'] = masterKey.value;
  else if (token.value) seenTokens.add((h['xc-auth'] = token.value));
  if (previewAs.value) h['xc-preview'] = previewAs.value;
  return h;
}

export function GraphqlClient(props: { projectId: string }) {
  useSignals();
  const url = `/nc/${props.projectId}/v1/graphql`;
  // The caller's auth goes with every request (introspection runs before the headers editor is
  // read); headers typed in the editor win over it, but the session token it was prefilled with
  // gives way to the current one after a refresh.
  const fetcher = useMemo<Fetcher>(() => {
    const base = createGraphiQLFetcher({ url: appUrl(url), headers: { 'xc-gui': 'true' } });
    return (params, opts) => base(params, { ...opts, headers: requestHeaders(callerHeaders(), opts?.headers as Record<string, string> | undefined, seenTokens) });
  }, [url]);
  const storage = useMemo(() => prefixedStorage(`tablo.graphiql.${props.projectId}.`), [props.projectId]);
  const headers = JSON.stringify(callerHeaders(), null, 2);
  // GraphiQL's own labels in the current language (the app renders afresh when it changes).
  const region = useRef<HTMLElement>(null);
  useEffect(() => (region.current ? localizeGraphiql(region.current) : undefined), [locale.value]);
  return (
    <section ref={region} className="graphql-client" aria-label={t('tools.graphql.region')}>
      <GraphiQL
        key={props.projectId}
        fetcher={fetcher}
        storage={storage}
        headers={headers}
        shouldPersistHeaders={false}
        defaultQuery={defaultQuery()}
        defaultEditorToolsVisibility="variables"
        forcedTheme={darkTheme.value ? 'dark' : 'light'}
      />
    </section>
  );
}
