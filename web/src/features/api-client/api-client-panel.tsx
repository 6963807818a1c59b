/**
 * The API Client tab: build a request (method, URL, params, headers, auth, body) with variables of
 * the chosen environment, prefilled from the project's OpenAPI document; send it (the project's own
 * API from the browser, other hosts through the server for owners and creators); see the answer
 * (status, time, size, folding JSON, headers); copy as curl; save it to a collection; the history of
 * the caller's last 500 requests, newest first. The request being edited survives a reload.
 */
import { useEffect, useMemo, useState } from 'react';
import { http } from '../../api/http';
import { apiClientApi, type EnvironmentData, type SavedItem } from '../../api/api-client';
import { Button, FormMessage } from '../../components/form';
import { token } from '../../stores/session';
import { toast } from '../../stores/toasts';
import { useSignals } from '../../stores/signals';
import { KeyValueEditor } from './kv-editor';
import { VariableInput } from './variable-input';
import { ResponseView } from './response-view';
import { operationsOf, type Operation } from './openapi-prefill';
import { EnvironmentBar } from './environment-bar';
import {
  METHODS, addToHistory, buildRequest, emptyRequest, looksLikeJson, requestMissing, toCurl, variableMap, type ApiRequest, type ApiResponse, type HistoryEntry, type Method,
} from './request-model';

const draftKey = (projectId: string) => `tablo.apiClient.${projectId}`;
const TABS = ['Params', 'Headers', 'Auth', 'Body'] as const;

export function ApiClientPanel(props: { projectId: string }) {
  useSignals();
  const { projectId } = props;
  const [req, setReq] = useState<ApiRequest>(() => {
    try {
      return { ...emptyRequest(), auth: token.value ?? '', ...JSON.parse(localStorage.getItem(draftKey(projectId)) ?? '{}') };
    } catch {
      return { ...emptyRequest(), auth: token.value ?? '' };
    }
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

  useEffect(() => {
    localStorage.setItem(draftKey(projectId), JSON.stringify(req));
  }, [req, projectId]);
  const reloadLists = () => {
    apiClientApi.items<EnvironmentData>(projectId, 'environment').then(setEnvs, () => {});
    apiClientApi.items<ApiRequest>(projectId, 'request').then(setSaved, () => {});
    apiClientApi.history(projectId).then(setHistory, () => {});
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

  const send = async () => {
    if (missing.length) return setError(`Unknown variable${missing.length > 1 ? 's' : ''} in this environment: ${missing.join(', ')}`);
    setError(null);
    setBusy(true);
    let built: ReturnType<typeof buildRequest>;
    try {
      built = buildRequest(req, vars, window.location.origin);
    } catch {
      setBusy(false);
      return setError(`'${req.url}' is not a valid URL`);
    }
    let answer: ApiResponse | { error: string };
    try {
      if (new URL(built.url).origin === window.location.origin) {
        // The project's own API: straight from the browser, with the caller's headers.
        const started = performance.now();
        const res = await fetch(built.url, { method: built.method, headers: built.headers, body: built.body });
        const data = await res.text();
        answer = { status: res.status, statusText: res.statusText, headers: [...res.headers.entries()], data, size: new Blob([data]).size, timeTaken: Math.round(performance.now() - started) };
      } else {
        const r = await apiClientApi.send(projectId, built);
        answer = { status: r.status, statusText: r.statusText, headers: r.headers, data: r.body, size: r.size, timeTaken: r.timeMs };
      }
      setResponse(answer);
    } catch (e) {
      answer = { error: (e as Error).message };
      setResponse(null);
      setError((e as Error).message);
    }
    setBusy(false);
    const entry: HistoryEntry = { createdAt: new Date().toISOString(), request: req, response: answer };
    setHistory((h) => addToHistory(h, entry));
    apiClientApi.addHistory(projectId, entry).catch(() => {});
  };

  const copyCurl = async () => {
    try {
      await navigator.clipboard.writeText(toCurl(buildRequest(req, vars, window.location.origin)));
      toast('success', 'Copied the request as curl');
    } catch (e) {
      toast('error', `Copy failed: ${(e as Error).message}`);
    }
  };
  const save = async (name: string) => {
    const [collection, title] = name.includes('/') ? [name.slice(0, name.indexOf('/')).trim(), name.slice(name.indexOf('/') + 1).trim()] : ['', name.trim()];
    try {
      await apiClientApi.save(projectId, { kind: 'request', collection, name: title, data: { ...req, auth: '' } });
      toast('success', `Saved ${title}`);
      setSaveName(null);
      reloadLists();
    } catch (e) {
      toast('error', (e as Error).message);
    }
  };
  const pick = (r: ApiRequest) => setReq({ ...emptyRequest(), ...r, auth: r.auth || (token.value ?? '') });
  const byTable = useMemo(() => [...new Set(ops.map((o) => o.table))], [ops]);

  return (
    <div className="panel api-client" role="region" aria-label="API Client">
      <aside className="api-client-side">
        <label className="field">
          <span>From the API</span>
          <select aria-label="Operation" value="" onChange={(e) => { const o = ops[Number(e.target.value)]; if (o) pick({ ...o.request, auth: '' }); }}>
            <option value="">Pick a table and an operation…</option>
            {byTable.map((tb) => (
              <optgroup key={tb} label={tb}>
                {ops.map((o, i) => (o.table === tb ? <option key={i} value={i}>{o.method} {o.summary}</option> : null))}
              </optgroup>
            ))}
          </select>
        </label>
        <h3>Collections</h3>
        {saved.length === 0 ? <p className="muted">No saved requests yet.</p> : null}
        <ul className="api-list" aria-label="Saved requests">
          {saved.map((s) => (
            <li key={s.id}>
              <button className="tree-leaf" onClick={() => pick(s.data)}>{s.collection ? `${s.collection} / ` : ''}{s.name}</button>
              <button className="btn btn-ghost" aria-label={`Delete ${s.name}`} onClick={() => apiClientApi.remove(projectId, s.id).then(reloadLists, (e) => toast('error', e.message))}>×</button>
            </li>
          ))}
        </ul>
        <h3>History</h3>
        <ul className="api-list" aria-label="History">
          {history.slice(0, 100).map((h, i) => (
            <li key={h.id ?? i}>
              <button className="tree-leaf history-entry" onClick={() => (pick(h.request), setResponse('status' in h.response ? h.response : null))}>
                <span className={`status-chip status-${'status' in h.response ? Math.floor(h.response.status / 100) : 'x'}`}>{'status' in h.response ? h.response.status : 'ERR'}</span> {h.request.method} {h.request.url}
              </button>
            </li>
          ))}
        </ul>
        {history.length ? <Button variant="ghost" onClick={() => apiClientApi.clearHistory(projectId).then(() => setHistory([]))}>Clear history</Button> : null}
      </aside>
      <section className="api-client-main">
        <EnvironmentBar projectId={projectId} envs={envs} envId={envId} onChoose={setEnvId} onChanged={reloadLists} />
        <div className="request-line">
          <select aria-label="Method" value={req.method} onChange={(e) => set({ method: e.target.value as Method })}>
            {METHODS.map((m) => <option key={m}>{m}</option>)}
          </select>
          <VariableInput className="url-input" label="URL" placeholder="/nc/…/api/v1/Table or https://…" value={req.url} onChange={(url) => set({ url })} variables={varNames} onEnter={send} />
          <Button onClick={send} disabled={busy}>{busy ? 'Sending…' : 'Send'}</Button>
          <Button variant="secondary" onClick={copyCurl}>Copy as curl</Button>
          <Button variant="secondary" onClick={() => setSaveName('')}>Save</Button>
        </div>
        {saveName !== null ? (
          <form className="inline-form" onSubmit={(e) => (e.preventDefault(), saveName.trim() && save(saveName))}>
            <input aria-label="Request name" autoFocus placeholder="Collection / name" value={saveName} onChange={(e) => setSaveName(e.target.value)} />
            <Button type="submit">Save request</Button>
            <Button variant="ghost" onClick={() => setSaveName(null)}>Cancel</Button>
          </form>
        ) : null}
        <div className="tab-strip small" role="tablist">
          {TABS.map((t) => (
            <button key={t} role="tab" aria-selected={tab === t} className={tab === t ? 'active' : ''} onClick={() => setTab(t)}>
              {t}{t === 'Params' && req.params.length ? ` (${req.params.filter((p) => p.enabled).length})` : ''}{t === 'Headers' && req.headers.length ? ` (${req.headers.filter((p) => p.enabled).length})` : ''}
            </button>
          ))}
        </div>
        {tab === 'Params' ? <KeyValueEditor label="Params" rows={req.params} onChange={(params) => set({ params })} variables={varNames} /> : null}
        {tab === 'Headers' ? <KeyValueEditor label="Headers" rows={req.headers} onChange={(headers) => set({ headers })} variables={varNames} /> : null}
        {tab === 'Auth' ? (
          <label className="field">
            <span>xc-auth (your session by default; clear it to send without)</span>
            <VariableInput label="Auth token" value={req.auth} onChange={(auth) => set({ auth })} variables={varNames} />
          </label>
        ) : null}
        {tab === 'Body' ? (
          <label className="field">
            <span>Body {req.body.trim() && !looksLikeJson(req.body) ? '(not JSON: sent as text)' : ''}</span>
            <textarea className="json-input" rows={8} aria-label="Body" value={req.body} onChange={(e) => set({ body: e.target.value })} />
          </label>
        ) : null}
        <FormMessage kind="error" text={error} />
        {response ? <ResponseView response={response} /> : <p className="muted">Send a request to see its answer here.</p>}
      </section>
    </div>
  );
}
