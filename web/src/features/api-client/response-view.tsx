/** An answer: status, time and size, then the body (JSON folded and coloured by CodeMirror) or the headers. */
import { useState } from 'react';
import CodeMirror from '@uiw/react-codemirror';
import { json } from '@codemirror/lang-json';
import { EditorView } from '@codemirror/view';
import { darkTheme } from '../../stores/settings';
import { useSignals } from '../../stores/signals';
import { looksLikeJson, type ApiResponse } from './request-model';

const sizeLabel = (n: number) => (n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`);

export function ResponseView(props: { response: ApiResponse }) {
  useSignals();
  const r = props.response;
  const [tab, setTab] = useState<'Body' | 'Headers'>('Body');
  const pretty = looksLikeJson(r.data) ? JSON.stringify(JSON.parse(r.data), null, 2) : r.data;
  return (
    <div className="response-view" aria-label="Response">
      <div className="response-meta">
        <span className={`status-chip status-${Math.floor(r.status / 100)}`} aria-label="Status">{r.status} {r.statusText ?? ''}</span>
        <span className="muted">{r.timeTaken} ms</span>
        <span className="muted">{sizeLabel(r.size)}</span>
        <span className="spacer" />
        <div className="tab-strip small" role="tablist">
          {(['Body', 'Headers'] as const).map((t) => (
            <button key={t} role="tab" aria-selected={tab === t} className={tab === t ? 'active' : ''} onClick={() => setTab(t)}>{t}</button>
          ))}
        </div>
      </div>
      {tab === 'Body' ? (
        <CodeMirror value={pretty} editable={false} readOnly height="360px" theme={darkTheme.value ? 'dark' : 'light'} extensions={[json(), EditorView.lineWrapping]} aria-label="Response body" />
      ) : (
        <table className="list-table">
          <tbody>
            {r.headers.map(([k, v]) => (
              <tr key={k}><td>{k}</td><td>{v}</td></tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
