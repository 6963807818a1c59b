/**
 * The gRPC Client tab: a server address (and TLS), its services and methods listed through server
 * reflection, the request as JSON (a template from the method's message type), metadata, and a call
 * of a unary or server-streaming method showing every response message, the status and the trailers.
 * Calls go through the server (owners and creators; the API client's address rules).
 */
import { useState } from 'react';
import CodeMirror from '@uiw/react-codemirror';
import { json } from '@codemirror/lang-json';
import { apiClientApi, type GrpcCallResult, type GrpcMethod } from '../../api/api-client';
import { Button, FormMessage } from '../../components/form';
import { darkTheme } from '../../stores/settings';
import { useSignals } from '../../stores/signals';
import { KeyValueEditor } from '../api-client/kv-editor';
import type { KeyValue } from '../api-client/request-model';

const saved = (projectId: string) => `tablo.grpcClient.${projectId}`;

export function GrpcClientPanel(props: { projectId: string }) {
  useSignals();
  const initial = (() => {
    try {
      return JSON.parse(localStorage.getItem(saved(props.projectId)) ?? '{}') as { address?: string; tls?: boolean };
    } catch {
      return {};
    }
  })();
  const [address, setAddress] = useState(initial.address ?? '');
  const [tls, setTls] = useState(initial.tls ?? false);
  const [services, setServices] = useState<{ name: string; methods: GrpcMethod[] }[] | null>(null);
  const [chosen, setChosen] = useState<{ service: string; method: GrpcMethod } | null>(null);
  const [request, setRequest] = useState('{}');
  const [metadata, setMetadata] = useState<KeyValue[]>([]);
  const [result, setResult] = useState<GrpcCallResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const list = async () => {
    setError(null);
    setBusy(true);
    localStorage.setItem(saved(props.projectId), JSON.stringify({ address, tls }));
    try {
      const r = await apiClientApi.grpcServices(props.projectId, address.trim(), tls);
      setServices(r.services);
      if (r.services.length === 0) setError('The server lists no services');
    } catch (e) {
      setServices(null);
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const choose = (service: string, method: GrpcMethod) => {
    setChosen({ service, method });
    setRequest(JSON.stringify(method.template, null, 2));
    setResult(null);
  };
  const call = async () => {
    if (!chosen) return;
    let body: unknown;
    try {
      body = JSON.parse(request);
    } catch (e) {
      return setError(`The request is not valid JSON: ${(e as Error).message}`);
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) return setError('The request must be a JSON object');
    setError(null);
    setBusy(true);
    try {
      const md = Object.fromEntries(metadata.filter((m) => m.enabled && m.name.trim()).map((m) => [m.name.trim(), m.value]));
      setResult(await apiClientApi.grpcCall(props.projectId, { address: address.trim(), tls, service: chosen.service, method: chosen.method.name, request: body, metadata: md }));
    } catch (e) {
      setResult(null);
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="panel grpc-client" role="region" aria-label="gRPC Client">
      <form className="request-line" onSubmit={(e) => (e.preventDefault(), list())}>
        <input aria-label="Server address" placeholder="host:port" value={address} onChange={(e) => setAddress(e.target.value)} />
        <label className="check"><input type="checkbox" checked={tls} onChange={(e) => setTls(e.target.checked)} /> TLS</label>
        <Button type="submit" disabled={busy || !address.trim()}>List services</Button>
      </form>
      <FormMessage kind="error" text={error} />
      <div className="grpc-layout">
        <aside className="api-client-side">
          {services?.map((s) => (
            <div key={s.name}>
              <h3>{s.name}</h3>
              <ul className="api-list" aria-label={`Methods of ${s.name}`}>
                {s.methods.map((m) => (
                  <li key={m.name}>
                    <button className={`tree-leaf${chosen?.method === m ? ' active' : ''}`} onClick={() => choose(s.name, m)} disabled={m.clientStreaming} title={m.clientStreaming ? 'Client-streaming methods cannot be called here' : `${m.requestType} → ${m.responseType}`}>
                      {m.name} <span className="muted">{m.serverStreaming ? 'stream' : 'unary'}</span>
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          )) ?? <p className="muted">Enter a server that offers gRPC reflection and list its services.</p>}
        </aside>
        <section className="api-client-main">
          {chosen ? (
            <>
              <h3>{chosen.service}/{chosen.method.name} <span className="muted">({chosen.method.requestType} → {chosen.method.responseType})</span></h3>
              <CodeMirror key={`${chosen.service}/${chosen.method.name}`} value={request} onChange={setRequest} height="200px" theme={darkTheme.value ? 'dark' : 'light'} extensions={[json()]} aria-label="Request JSON" />
              <KeyValueEditor label="Metadata" rows={metadata} onChange={setMetadata} />
              <Button onClick={call} disabled={busy}>{busy ? 'Calling…' : 'Call'}</Button>
            </>
          ) : null}
          {result ? (
            <div className="response-view" aria-label="gRPC response">
              <div className="response-meta">
                <span className={`status-chip status-${result.status.code === 0 ? 2 : 5}`} aria-label="gRPC status">{result.status.name} ({result.status.code})</span>
                <span className="muted">{result.status.details}</span>
                <span className="muted">{result.timeMs} ms</span>
                <span className="muted">{result.messages.length} message{result.messages.length === 1 ? '' : 's'}{result.truncated ? ' (cut)' : ''}</span>
              </div>
              <CodeMirror value={JSON.stringify(result.messages.length === 1 ? result.messages[0] : result.messages, null, 2)} editable={false} readOnly height="240px" theme={darkTheme.value ? 'dark' : 'light'} extensions={[json()]} aria-label="Response messages" />
              <h4>Trailers</h4>
              <table className="list-table"><tbody>{Object.entries({ ...result.headers, ...result.trailers }).map(([k, v]) => <tr key={k}><td>{k}</td><td>{v}</td></tr>)}</tbody></table>
            </div>
          ) : null}
        </section>
      </div>
    </div>
  );
}
