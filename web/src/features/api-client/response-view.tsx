/**
 * An answer: status, time and size, then the body (JSON folded and coloured by CodeMirror; an
 * image shown as one, other bytes offered as a file) or the headers.
 */
import { useEffect, useState } from 'react';
import CodeMirror from '@uiw/react-codemirror';
import { json } from '@codemirror/lang-json';
import { EditorView } from '@codemirror/view';
import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { darkTheme } from '../../stores/settings';
import { useSignals } from '../../stores/signals';
import { t } from '../../i18n';
import { looksLikeJson, type ApiResponse } from './request-model';
import { formatBytes, formatMs } from './units';
import { prettyJson } from './json-pretty';
import './tools.css';

export function ResponseView(props: { response: ApiResponse }) {
  useSignals();
  const r = props.response;
  const [tab, setTab] = useState<'Body' | 'Headers'>('Body');
  // Indented as written: parsing would round large numbers (ids of 64 bits) and reformat decimals.
  const pretty = looksLikeJson(r.data) ? prettyJson(r.data) : r.data;
  return (
    <Tabs className="response-view" aria-label={t('tools.response.label')} selectedKey={tab} onSelectionChange={(k) => setTab(k as 'Body' | 'Headers')}>
      <div className="response-meta">
        <span className={`status-chip status-${Math.floor(r.status / 100)}`} aria-label={t('tools.response.status')}>{r.status} {r.statusText ?? ''}</span>
        <span className="muted">{formatMs(r.timeTaken)}</span>
        <span className="muted">{formatBytes(r.size)}</span>
        <span className="spacer" />
        <TabList className="tab-strip small" aria-label={t('tools.response.parts')}>
          <Tab id="Body" className={({ isSelected }) => (isSelected ? 'active' : '')}>{t('tools.response.body')}</Tab>
          <Tab id="Headers" className={({ isSelected }) => (isSelected ? 'active' : '')}>{t('tools.response.headers')}</Tab>
        </TabList>
      </div>
      <TabPanel id="Body" className="tools-tabpanel">
        {r.binary !== undefined ? <BinaryBody type={r.binary} size={r.size} blob={r.blob} /> : <CodeMirror value={pretty} editable={false} readOnly height="360px" theme={darkTheme.value ? 'dark' : 'light'} extensions={[json(), EditorView.lineWrapping]} aria-label={t('tools.response.bodyLabel')} />}
      </TabPanel>
      <TabPanel id="Headers" className="tools-tabpanel">
        <table className="list-table">
          <tbody>
            {r.headers.map(([k, v]) => (
              <tr key={k}><td>{k}</td><td>{v}</td></tr>
            ))}
          </tbody>
        </table>
      </TabPanel>
    </Tabs>
  );
}

/** A body that is not text: an image as one, any bytes as a file to save; from the history, what it was. */
function BinaryBody(props: { type: string; size: number; blob?: Blob }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!props.blob) return setUrl(null);
    const u = URL.createObjectURL(props.blob);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [props.blob]);
  const type = props.type || 'application/octet-stream';
  return (
    <div className="binary-body" role="region" aria-label={t('tools.response.bodyLabel')}>
      <p>{t('tools.response.binary', { type, size: formatBytes(props.size) })}</p>
      {url && type.startsWith('image/') ? <img className="binary-preview" src={url} alt={t('tools.response.imageAlt')} /> : null}
      {url ? (
        <a className="btn btn-secondary" href={url} download={`response.${extensionOf(type)}`}>{t('tools.response.download')}</a>
      ) : (
        <p className="muted">{t('tools.response.binaryNotKept')}</p>
      )}
    </div>
  );
}

/** A file name ending for a media type (bin when none fits). */
function extensionOf(type: string): string {
  const sub = type.split('/')[1]?.split('+')[0] ?? '';
  return /^[a-z0-9.-]{1,10}$/i.test(sub) && sub !== 'octet-stream' ? sub.replace(/^x-/, '') : 'bin';
}
