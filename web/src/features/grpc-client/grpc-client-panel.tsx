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
import { ToolsSwitch } from '../api-client/tools-switch';
import { formatMs } from '../api-client/units';
import { t } from '../../i18n';

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
      if (r.services.length === 0) setError(t('tools.grpc.noServices'));
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
      return setError(t('tools.grpc.invalidJson', { error: (e as Error).message }));
    }
    if (!body || typeof body !== 'object' || Array.isArray(body)) return setError(t('tools.grpc.notObject'));
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
    <div className="panel grpc-client" role="region" aria-label={t('tools.grpc.region')}>
      <form className="request-line" onSubmit={(e) => (e.preventDefault(), list())}>
        <input className="grpc-address" aria-label={t('tools.grpc.address')} placeholder={t('tools.grpc.addressPlaceholder')} value={address} onChange={(e) => setAddress(e.target.value)} />
        <ToolsSwitch isSelected={tls} onChange={setTls}>{t('tools.grpc.tls')}</ToolsSwitch>
        <Button type="submit" disabled={busy || !address.trim()}>{t('tools.grpc.listServices')}</Button>
      </form>
      <FormMessage kind="error" text={error} />
      <div className="grpc-layout">
        <aside className="api-client-side">
          {services?.map((s) => (
            <div key={s.name}>
              <h3>{s.name}</h3>
              <ul className="api-list" aria-label={t('tools.grpc.methodsOf', { service: s.name })}>
                {s.methods.map((m) => (
                  <li key={m.name}>
                    <button className={`tree-leaf${chosen?.method === m ? ' active' : ''}`} onClick={() => choose(s.name, m)} disabled={m.clientStreaming} title={m.clientStreaming ? t('tools.grpc.clientStreaming') : t('tools.grpc.types', { request: m.requestType, response: m.responseType })}>
                      {m.name} <span className="muted">{m.serverStreaming ? t('tools.grpc.stream') : t('tools.grpc.unary')}</span>
                    </button>
                  </li>
                ))}
              </ul>
            </div>
          )) ?? <p className="muted">{t('tools.grpc.hint')}</p>}
        </aside>
        <section className="api-client-main">
          {chosen ? (
            <>
              <h3>{chosen.service}/{chosen.method.name} <span className="muted">({t('tools.grpc.types', { request: chosen.method.requestType, response: chosen.method.responseType })})</span></h3>
              <CodeMirror key={`${chosen.service}/${chosen.method.name}`} value={request} onChange={setRequest} height="200px" theme={darkTheme.value ? 'dark' : 'light'} extensions={[json()]} aria-label={t('tools.grpc.requestJson')} />
              {/* Named on screen too: alone, the editor's '+ Add' did not say what it adds. */}
              <h4 className="grpc-metadata-heading">{t('tools.grpc.metadata')}</h4>
              <KeyValueEditor label={t('tools.grpc.metadata')} rows={metadata} onChange={setMetadata} />
              <Button onClick={call} disabled={busy}>{busy ? t('tools.grpc.calling') : t('tools.grpc.call')}</Button>
            </>
          ) : null}
          {result ? (
            <div className="response-view" aria-label={t('tools.grpc.response')}>
              <div className="response-meta">
                <span className={`status-chip status-${result.status.code === 0 ? 2 : 5}`} aria-label={t('tools.grpc.status')}>{result.status.name} ({result.status.code})</span>
                <span className="muted">{result.status.details}</span>
                <span className="muted">{formatMs(result.timeMs)}</span>
                <span className="muted">{result.truncated ? t('tools.grpc.messagesCut', { count: result.messages.length }) : t('tools.grpc.messages', { count: result.messages.length })}</span>
              </div>
              <CodeMirror value={JSON.stringify(result.messages.length === 1 ? result.messages[0] : result.messages, null, 2)} editable={false} readOnly height="240px" theme={darkTheme.value ? 'dark' : 'light'} extensions={[json()]} aria-label={t('tools.grpc.responseMessages')} />
              <h4>{t('tools.grpc.trailers')}</h4>
              <table className="list-table"><tbody>{Object.entries({ ...result.headers, ...result.trailers }).map(([k, v]) => <tr key={k}><td>{k}</td><td>{v}</td></tr>)}</tbody></table>
            </div>
          ) : null}
        </section>
      </div>
    </div>
  );
}
