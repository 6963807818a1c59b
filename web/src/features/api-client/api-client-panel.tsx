/**
 * The API Client tab: build a request (method, URL, params, headers, auth, body) with variables of
 * the chosen environment, prefilled from the project's OpenAPI document; send it (the project's own
 * API from the browser, other hosts through the server for owners and creators); see the answer
 * (status, time, size, folding JSON, headers); copy as curl; save it to a collection; run it many
 * times as a performance test (perf-panel.tsx); the history of the caller's last 500 requests and
 * tests, newest first. The request being edited survives a reload.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { http } from '../../api/http';
import { apiClientApi, type EnvironmentData, type SavedItem } from '../../api/api-client';
import { Button as AriaButton, ListBox, ListBoxItem, Popover, Select, SelectValue, Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { Button, FormMessage } from '../../components/form';
import { ConfirmButton } from '../../components/confirm-button';
import { ConfirmDialog } from '../../components/overlays';
import { t } from '../../i18n';
import { TipButton } from './tip-button';
import { token } from '../../stores/session';
import { isProjectAdmin } from '../../stores/project';
import { toast } from '../../stores/toasts';
import { useSignals } from '../../stores/signals';
import { KeyValueEditor } from './kv-editor';
import { VariableInput } from './variable-input';
import { ResponseView } from './response-view';
import { operationsOf, type Operation } from './openapi-prefill';
import { EnvironmentBar } from './environment-bar';
import { PerfPanel, PerfResultView } from './perf-panel';
import type { PerfResult, PerfSend } from './perf-test';
import { useLatest } from '../../components/use-latest-answer';
import {
  METHODS, addToHistory, base64Bytes, buildRequest, keptResponse, responseBody, emptyRequest, headerProblem, keptRequest, looksLikeJson, requestMissing, restoredRequest, toCurl, variableMap, type ApiRequest, type ApiResponse, type HistoryEntry, type Method,
} from './request-model';

const draftKey = (projectId: string) => `tablo.apiClient.${projectId}`;
const TABS = ['Params', 'Headers', 'Auth', 'Body'] as const;
const tabName = (tab: (typeof TABS)[number]) =>
  tab === 'Params' ? t('tools.api.tabParams') : tab === 'Headers' ? t('tools.api.tabHeaders') : tab === 'Auth' ? t('tools.api.tabAuth') : t('tools.api.tabBody');

/** A request as it compares for "edited since loaded" (the session token it carries left out). */
const asLoaded = (r: ApiRequest) => JSON.stringify({ ...r, auth: '' });

export function ApiClientPanel(props: { projectId: string }) {
  useSignals();
  const { projectId } = props;
  const [req, setReq] = useState<ApiRequest>(() => {
    try {
      const draft = JSON.parse(localStorage.getItem(draftKey(projectId)) ?? 'null') as Partial<ApiRequest> | null;
      if (draft) return restoredRequest(draft, token.value);
    } catch {
      // A broken draft starts afresh.
    }
    return { ...emptyRequest(), auth: token.value ?? '' };
  });
  const [tab, setTab] = useState<(typeof TABS)[number]>('Params');
  const [ops, setOps] = useState<Operation[]>([]);
  const [envs, setEnvs] = useState<SavedItem<EnvironmentData>[]>([]);
  const [envId, setEnvId] = useState<string>('');
  const [saved, setSaved] = useState<SavedItem<ApiRequest>[]>([]);
  const [history, setHistory] = useState<HistoryEntry[]>([]);
  const [response, setResponse] = useState<ApiResponse | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [saveName, setSaveName] = useState<string | null>(null);
  const [perfOpen, setPerfOpen] = useState(false);
  const [perf, setPerf] = useState<PerfResult | null>(null);

  useEffect(() => {
    localStorage.setItem(draftKey(projectId), JSON.stringify(keptRequest(req, token.value)));
  }, [req, projectId]);
  // A refreshed session token replaces the old one in the Auth field (the old one stops working).
  const lastToken = useRef(token.value);
  useEffect(() => {
    const before = lastToken.current;
    lastToken.current = token.value;
    if (before && before !== token.value) setReq((r) => (r.auth.trim() === before ? { ...r, auth: token.value ?? '' } : r));
  }, [token.value]);
  // Read at start and after each save: a read answered after a later one is dropped.
  const [latestEnvs, latestSaved, latestHistory] = [useLatest(), useLatest(), useLatest()];
  const reloadLists = () => {
    void latestEnvs(apiClientApi.items<EnvironmentData>(projectId, 'environment'), setEnvs);
    void latestSaved(apiClientApi.items<ApiRequest>(projectId, 'request'), setSaved);
    void latestHistory(apiClientApi.history(projectId), setHistory);
  };
  useEffect(() => {
    http<Parameters<typeof operationsOf>[0] & { servers?: { url: string }[] }>(`/nc/${projectId}/docs/openapi.json`, { query: { dbAlias: 'db' } }).then(
      (doc) => {
        const server = doc.servers?.[0]?.url ?? '';
        setOps(operationsOf(doc).map((o) => ({ ...o, request: { ...o.request, url: server + o.request.url } })));
      },
      () => setOps([]),
    );
    reloadLists();
  }, [projectId]);

  const env = envs.find((e) => e.id === envId);
  const vars = useMemo(() => variableMap(env?.data.variables ?? []), [env]);
  const varNames = [...vars.keys()];
  const missing = requestMissing(req, vars);
  const set = (patch: Partial<ApiRequest>) => setReq((r) => ({ ...r, ...patch }));

  /** The request on screen as sent, or the message of why it cannot be. */
  const built = (): ReturnType<typeof buildRequest> | string => {
    if (missing.length) return t('tools.api.unknownVariables', { count: missing.length, names: missing.join(', ') });
    let b: ReturnType<typeof buildRequest>;
    try {
      b = buildRequest(req, vars, document.baseURI, token.value);
    } catch {
      return t('tools.api.invalidUrl', { url: req.url });
    }
    const bad = headerProblem(b.headers);
    if (bad) return bad.part === 'name' ? t('tools.api.badHeaderName', { name: bad.name }) : t('tools.api.badHeaderValue', { name: bad.name });
    return b;
  };

  /** Sends a built request: the project's own API straight from the browser, other hosts through the server. */
  const sendOnce = async (b: ReturnType<typeof buildRequest>): Promise<ApiResponse> => {
    if (new URL(b.url).origin === window.location.origin) {
      // The project's own API: straight from the browser, with the caller's headers.
      const started = performance.now();
      const res = await fetch(b.url, { method: b.method, headers: b.headers, body: b.body });
      const bytes = new Uint8Array(await res.arrayBuffer());
      return { status: res.status, statusText: res.statusText, headers: [...res.headers.entries()], ...responseBody(res.headers.get('content-type'), bytes), size: bytes.length, timeTaken: Math.round(performance.now() - started) };
    }
    const r = await apiClientApi.send(projectId, b);
    const type = r.headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1]?.split(';')[0]?.trim() ?? '';
    const body = r.binary ? { data: '', binary: type, blob: new Blob([base64Bytes(r.body) as BlobPart], type ? { type } : {}) } : { data: r.body };
    return { status: r.status, statusText: r.statusText, headers: r.headers, ...body, size: r.size, timeTaken: r.timeMs };
  };

  // A request sent (kept in the history) or saved counts as kept: picking another does not ask (see `edited`).
  const remember = (entry: HistoryEntry, sent: ApiRequest) => {
    setHistory((h) => addToHistory(h, entry));
    apiClientApi.addHistory(projectId, entry).catch(() => {});
    setLoaded(asLoaded(sent));
  };

  const send = async () => {
    const b = built();
    if (typeof b === 'string') return setError(b);
    setError(null);
    setBusy(true);
    setPerf(null);
    let answer: ApiResponse | { error: string };
    try {
      answer = await sendOnce(b);
      setResponse(answer);
    } catch (e) {
      answer = { error: (e as Error).message };
      setResponse(null);
      setError((e as Error).message);
    }
    setBusy(false);
    remember({ createdAt: new Date().toISOString(), request: keptRequest(req, token.value), response: 'status' in answer ? keptResponse(answer) : answer }, req);
  };

  /** The performance test's send: the request as on screen when the test starts. */
  const perfSend = (): PerfSend | string => {
    const b = built();
    if (typeof b === 'string') return b;
    return async () => {
      try {
        return { status: (await sendOnce(b)).status };
      } catch (e) {
        return { error: (e as Error).message };
      }
    };
  };
  const perfFinished = (result: PerfResult) => {
    setPerf(result);
    setResponse(null);
    remember({ createdAt: new Date().toISOString(), request: keptRequest(req, token.value), perf: result }, req);
  };

  const copyCurl = async () => {
    try {
      await navigator.clipboard.writeText(toCurl(buildRequest(req, vars, document.baseURI, token.value)));
      toast('success', t('tools.api.copiedCurl'));
    } catch (e) {
      toast('error', t('tools.api.copyFailed', { error: (e as Error).message }));
    }
  };
  const save = async (name: string) => {
    const [collection, title] = name.includes('/') ? [name.slice(0, name.indexOf('/')).trim(), name.slice(name.indexOf('/') + 1).trim()] : ['', name.trim()];
    try {
      await apiClientApi.save(projectId, { kind: 'request', collection, name: title, data: { ...req, auth: '' } });
      toast('success', t('tools.api.savedRequest', { name: title }));
      setLoaded(asLoaded(req));
      setSaveName(null);
      reloadLists();
    } catch (e) {
      toast('error', (e as Error).message);
    }
  };
  /** The request as last loaded (at start or picked), to tell whether it was edited since. */
  const [loaded, setLoaded] = useState(() => asLoaded(req));
  const edited = asLoaded(req) !== loaded;
  /** A request picked (an operation of "From the API", a saved request, a history entry) waiting for the confirmation that the edited one may go. */
  const [pending, setPending] = useState<{ label: string; load: () => void } | null>(null);
  const pick = (r: ApiRequest) => {
    const next = restoredRequest(r, token.value);
    const shown = { ...next, auth: next.auth || (token.value ?? '') };
    setReq(shown);
    setLoaded(asLoaded(shown));
  };
  /** Loads a picked request, after asking when the current one was edited since it was loaded. */
  const replaceWith = (label: string, load: () => void) => (edited ? setPending({ label, load }) : load());
  const pickOperation = (o: Operation) => replaceWith(`${o.method} ${o.summary}`, () => pick({ ...o.request, auth: '' }));
  const byTable = useMemo(() => [...new Set(ops.map((o) => o.table))], [ops]);
  // Owners and creators send and keep requests; other members read the saved ones (credentials left out).
  const admin = isProjectAdmin.value;

  return (
    <div className="panel api-client" role="region" aria-label={t('tools.api.region')}>
      {pending ? (
        <ConfirmDialog heading={t('tools.api.replaceHeading')} submitLabel={t('tools.api.replace')} onCancel={() => setPending(null)} onSubmit={() => (pending.load(), setPending(null))}>
          <p>{t('tools.api.replaceBody', { operation: pending.label })}</p>
        </ConfirmDialog>
      ) : null}
      <aside className="api-client-side">
        <label className="field">
          <span>{t('tools.api.fromApi')}</span>
          <select aria-label={t('tools.api.operation')} value="" onChange={(e) => { const o = ops[Number(e.target.value)]; if (o) pickOperation(o); }}>
            <option value="">{t('tools.api.pickOperation')}</option>
            {byTable.map((tb) => (
              <optgroup key={tb} label={tb}>
                {ops.map((o, i) => (o.table === tb ? <option key={i} value={i}>{o.method} {o.summary}</option> : null))}
              </optgroup>
            ))}
          </select>
        </label>
        <h3>{t('tools.api.collections')}</h3>
        {saved.length === 0 ? <p className="muted">{t('tools.api.noSaved')}</p> : null}
        <ul className="api-list" aria-label={t('tools.api.savedRequests')}>
          {saved.map((s) => (
            <li key={s.id}>
              <button className="tree-leaf" onClick={() => replaceWith(s.name, () => pick(s.data))}>{s.collection ? `${s.collection} / ` : ''}{s.name}</button>
              {admin ? <TipButton className="btn btn-ghost" label={t('tools.api.deleteSaved', { name: s.name })} onPress={() => void apiClientApi.remove(projectId, s.id).then(reloadLists, (e) => toast('error', e.message))}>×</TipButton> : null}
            </li>
          ))}
        </ul>
        <h3>{t('tools.api.history')}</h3>
        <ul className="api-list" aria-label={t('tools.api.history')}>
          {history.map((h, i) => (
            <li key={h.id ?? i}>
              <button className="tree-leaf history-entry" onClick={() => replaceWith(`${h.request.method} ${h.request.url}`, () => (pick(h.request), setResponse(h.response && 'status' in h.response ? h.response : null), setPerf(h.perf ?? null)))}>
                {h.perf ? (
                  <span className="status-chip status-perf">{t('tools.perf.chip')}</span>
                ) : (
                  <span className={`status-chip status-${h.response && 'status' in h.response ? Math.floor(h.response.status / 100) : 'x'}`}>{h.response && 'status' in h.response ? h.response.status : t('tools.api.errorChip')}</span>
                )}{' '}
                {h.request.method} {h.request.url}
              </button>
            </li>
          ))}
        </ul>
        {history.length ? (
          <ConfirmButton
            label={t('tools.api.clearHistory')}
            heading={t('tools.api.clearHistoryHeading', { count: history.length })}
            body={t('tools.api.clearHistoryBody')}
            onConfirm={() => apiClientApi.clearHistory(projectId).then(() => setHistory([]), (e) => toast('error', (e as Error).message))}
          />
        ) : null}
      </aside>
      <section className="api-client-main">
        {admin ? null : <p className="muted" role="note">{t('tools.api.ownersOnly')}</p>}
        <EnvironmentBar projectId={projectId} envs={envs} envId={envId} onChoose={setEnvId} onChanged={reloadLists} readOnly={!admin} />
        <div className="request-line">
          <Select className="method-select" aria-label={t('tools.api.method')} selectedKey={req.method} onSelectionChange={(k) => k && set({ method: k as Method })}>
            <AriaButton className="aria-select-button">
              <SelectValue />
              <span aria-hidden>▾</span>
            </AriaButton>
            <Popover className="aria-popover" placement="bottom start">
              <ListBox className="menu-list aria-menu method-list">
                {METHODS.map((m) => (
                  <ListBoxItem key={m} id={m} className="menu-item" textValue={m}>
                    {m}
                  </ListBoxItem>
                ))}
              </ListBox>
            </Popover>
          </Select>
          <VariableInput className="url-input" label={t('tools.api.url')} placeholder={t('tools.api.urlPlaceholder')} value={req.url} onChange={(url) => set({ url })} variables={varNames} onEnter={send} />
          <Button onClick={send} disabled={busy || !req.url.trim() || !admin}>{busy ? t('tools.api.sending') : t('tools.api.send')}</Button>
          <Button variant="secondary" onClick={copyCurl}>{t('tools.api.copyCurl')}</Button>
          {admin ? <Button variant="secondary" onClick={() => setSaveName('')}>{t('tools.api.save')}</Button> : null}
          {admin ? <Button variant="secondary" onClick={() => setPerfOpen(true)} disabled={perfOpen}>{t('tools.perf.open')}</Button> : null}
        </div>
        {perfOpen ? <PerfPanel prepare={perfSend} disabled={!req.url.trim()} onFinished={perfFinished} onClose={() => setPerfOpen(false)} /> : null}
        {saveName !== null ? (
          <form className="inline-form" onSubmit={(e) => (e.preventDefault(), saveName.trim() && save(saveName))}>
            <input aria-label={t('tools.api.requestName')} autoFocus placeholder={t('tools.api.requestNamePlaceholder')} value={saveName} onChange={(e) => setSaveName(e.target.value)} />
            <Button type="submit">{t('tools.api.saveRequest')}</Button>
            <Button variant="ghost" onClick={() => setSaveName(null)}>{t('tools.api.cancel')}</Button>
          </form>
        ) : null}
        <Tabs className="tools-tabs" selectedKey={tab} onSelectionChange={(k) => setTab(k as (typeof TABS)[number])}>
          <TabList className="tab-strip small" aria-label={t('tools.api.requestParts')}>
            {TABS.map((tb) => (
              <Tab key={tb} id={tb} className={({ isSelected }) => (isSelected ? 'active' : '')}>
                {tb === 'Params' && req.params.length
                  ? t('tools.api.tabCount', { name: tabName(tb), count: req.params.filter((p) => p.enabled).length })
                  : tb === 'Headers' && req.headers.length
                    ? t('tools.api.tabCount', { name: tabName(tb), count: req.headers.filter((p) => p.enabled).length })
                    : tabName(tb)}
              </Tab>
            ))}
          </TabList>
          <TabPanel id="Params" className="tools-tabpanel">
            <KeyValueEditor label={t('tools.api.tabParams')} rows={req.params} onChange={(params) => set({ params })} variables={varNames} />
          </TabPanel>
          <TabPanel id="Headers" className="tools-tabpanel">
            <KeyValueEditor label={t('tools.api.tabHeaders')} rows={req.headers} onChange={(headers) => set({ headers })} variables={varNames} />
          </TabPanel>
          <TabPanel id="Auth" className="tools-tabpanel">
            <label className="field">
              <span>{t('tools.api.authHint')}</span>
              <VariableInput label={t('tools.api.authToken')} value={req.auth} onChange={(auth) => set({ auth })} variables={varNames} />
            </label>
          </TabPanel>
          <TabPanel id="Body" className="tools-tabpanel">
            <label className="field">
              <span>{req.body.trim() && !looksLikeJson(req.body) ? t('tools.api.bodyNotJson') : t('tools.api.tabBody')}</span>
              <textarea className="json-input" rows={8} aria-label={t('tools.api.tabBody')} value={req.body} onChange={(e) => set({ body: e.target.value })} />
            </label>
          </TabPanel>
        </Tabs>
        <FormMessage kind="error" text={error} />
        {perf ? <PerfResultView result={perf} /> : response ? <ResponseView response={response} /> : <p className="muted">{t('tools.api.responseHint')}</p>}
      </section>
    </div>
  );
}
