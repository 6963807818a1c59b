/**
 * SQL Client (owners and creators only): editors in tabs (three temporary ones at start, more on
 * demand, kept across reloads per project database), Run all or the selection (Ctrl+Enter),
 * Explain, Format, Cancel of the running statement, a time-out per run, one result tab per
 * statement, saved queries and the user's history beside. A statement that changes the schema
 * reloads the tree and the completion.
 */
import { engineName } from '../../lib/engine-names';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { formatScript } from './format-script';
import { loadRemainingRows, sqlClientApi, type Engine, type RunAnswer, type SqlSchema } from '../../api/sql-client';
import { useSignals } from '../../stores/signals';
import type { HttpError } from '../../api/http';
import { darkTheme } from '../../stores/settings';
import { schemaChanged, schemaGeneration } from '../../stores/schema-ui';
import { toast } from '../../stores/toasts';
import { Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { Button } from '../../components/form';
import { t } from '../../i18n';
import { TabCloseButton, TabCloseHint, TipButton, closeKeys } from '../api-client/tip-button';
import { SqlEditor, type SqlEditorHandle } from './sql-editor';
import { ResultView } from './result-view';
import { SqlSidebar } from './sql-sidebar';
import './sql-client.css';
import { loadState, newEditorId, nextTitle, saveState, timeoutSeconds, type SqlClientState } from './sql-state';
import { SqlTimeoutInput } from './timeout-field';
import { useLatest } from '../../components/use-latest-answer';

interface RunView {
  answer: RunAnswer | null;
  error: string | null;
  explain: boolean;
  docText: string;
  offset: number;
}

/** Resolves once the browser has painted the next frame. */
const afterPaint = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

/** Results stay while the page lives, so switching tabs does not lose them. */
const results = new Map<string, RunView>();

const FORMATTER_LANGUAGE = { pg: 'postgresql', mysql: 'mariadb', sqlite: 'sqlite', mssql: 'transactsql' } as const;

export function SqlClient(props: { projectId: string; dbAlias: string }) {
  useSignals();
  const closeHintId = useId();
  const scope = useMemo(() => ({ projectId: props.projectId, dbAlias: props.dbAlias }), [props.projectId, props.dbAlias]);
  const [state, setState] = useState<SqlClientState>(() => loadState(props.projectId, props.dbAlias));
  const [schema, setSchema] = useState<SqlSchema | null>(null);
  const [running, setRunning] = useState<{ runId: string; editorId: string } | null>(null);
  const [, setTick] = useState(0);
  const [sideVersion, setSideVersion] = useState(0);
  const editor = useRef<SqlEditorHandle>(null);
  const cancelRequested = useRef<string | null>(null);
  const active = state.editors.find((e) => e.id === state.active) ?? state.editors[0]!;
  const resultKey = `${props.projectId}\u0000${props.dbAlias}\u0000${active.id}`;
  const view = results.get(resultKey) ?? null;
  const engine: Engine = schema?.engine ?? 'pg';

  useEffect(() => saveState(props.projectId, props.dbAlias, state), [state]);
  // Read again on each schema change: the latest read's answer is the schema the editor completes from.
  const latestSchema = useLatest();
  useEffect(() => {
    void latestSchema(sqlClientApi.schema(scope), setSchema, (e) => toast('error', t('tools.sql.schemaFailed', { error: e.message })));
  }, [scope, schemaGeneration.value]);

  const update = (fn: (s: SqlClientState) => SqlClientState) => setState((s) => fn(s));
  const setText = (text: string) => update((s) => ({ ...s, editors: s.editors.map((e) => (e.id === s.active ? { ...e, text } : e)) }));
  const addEditor = (init?: { title?: string; text?: string; savedId?: string }) =>
    update((s) => {
      const ed = { id: newEditorId(), title: init?.title ?? nextTitle(s.editors), text: init?.text ?? '', savedId: init?.savedId };
      return { editors: [...s.editors, ed], active: ed.id };
    });
  const closeEditor = (id: string) =>
    update((s) => {
      const rest = s.editors.filter((e) => e.id !== id);
      if (!rest.length) rest.push({ id: newEditorId(), title: t('tools.sql.queryTitle', { n: 1 }), text: '' });
      return { editors: rest, active: s.active === id ? rest[Math.max(0, s.editors.findIndex((e) => e.id === id) - 1)]!.id : s.active };
    });

  const run = async (explain = false) => {
    if (running) return;
    const { text, offset } = editor.current?.runnable() ?? { text: active.text, offset: 0 };
    if (!text.trim()) return toast('info', t('tools.sql.typeStatement'));
    const runId = crypto.randomUUID();
    const editorId = active.id;
    const key = resultKey;
    const docText = active.text;
    editor.current?.markError(null);
    setRunning({ runId, editorId });
    try {
      const answer = await sqlClientApi.run(scope, { sql: text, runId, timeoutMs: timeoutSeconds.value * 1000, explain });
      results.set(key, { answer, error: null, explain, docText, offset });
      const failed = answer.results.find((r) => r.error);
      if (failed?.error?.position !== undefined && editorId === state.active) editor.current?.markError({ from: offset + failed.start + failed.error.position, message: failed.error.msg });
      if (answer.schemaChanged) schemaChanged();
      setTick((n) => n + 1);
      // The first rows are painted before the rest come page by page (Cancel still stops the reading).
      if (answer.results.some((r) => !r.complete)) await afterPaint();
      for (const r of answer.results) {
        await loadRemainingRows(scope, r, () => setTick((n) => n + 1), () => cancelRequested.current === runId).catch((e) => {
          r.loadError = (e as Error).message;
        });
      }
    } catch (e) {
      results.set(key, { answer: null, error: (e as Error).message, explain, docText, offset });
    } finally {
      setRunning(null);
      setTick((n) => n + 1);
      setSideVersion((n) => n + 1);
    }
  };

  const cancel = async () => {
    if (!running) return;
    // Stops reading further pages here too, should the database be done already.
    cancelRequested.current = running.runId;
    try {
      await sqlClientApi.cancel(scope, running.runId);
    } catch (e) {
      // 404: the statement had ended in the database; only the reading of pages was left to stop.
      if ((e as HttpError).status !== 404) toast('error', (e as Error).message);
    }
  };

  const format = () => {
    try {
      editor.current?.replaceAll(formatScript(active.text, { language: FORMATTER_LANGUAGE[engine], keywordCase: 'upper' }, engine === 'mysql'));
    } catch (e) {
      toast('error', t('tools.sql.formatFailed', { error: (e as Error).message.split('\n')[0] }));
    }
  };

  const save = async () => {
    if (!active.text.trim()) return toast('info', t('tools.sql.nothingToSave'));
    try {
      const q = await sqlClientApi.saveQuery(scope, { id: active.savedId, name: active.title.trim() || t('tools.sql.defaultName'), sql: active.text });
      update((s) => ({ ...s, editors: s.editors.map((e) => (e.id === active.id ? { ...e, savedId: q.id, title: q.name } : e)) }));
      toast('success', t('tools.sql.saved', { name: q.name }));
      setSideVersion((n) => n + 1);
    } catch (e) {
      toast('error', (e as Error).message);
    }
  };

  return (
    <section className="sqlc-root" aria-label={t('tools.sql.region')}>
      <SqlSidebar
        scope={scope}
        version={sideVersion}
        onOpen={(q) => addEditor({ title: q.name, text: q.sql, savedId: q.id })}
        onUse={(sql) => {
          // Into the editor when it holds nothing else; text being written there is kept: a new editor takes it.
          if (!active.text.trim() || active.text === sql) editor.current?.replaceAll(sql);
          else addEditor({ text: sql });
        }}
      />
      <Tabs className="sqlc-main" selectedKey={active.id} onSelectionChange={(k) => update((s) => ({ ...s, active: String(k) }))}>
        <div className="sqlc-editor-tabs" onKeyDown={closeKeys(() => closeEditor(active.id))}>
          <TabCloseHint id={closeHintId} />
          <TabList className="sqlc-tablist" aria-label={t('tools.sql.editorsLabel')}>
            {state.editors.map((e) => (
              <Tab key={e.id} id={e.id} aria-label={e.title || t('tools.sql.defaultName')} aria-describedby={closeHintId} className={({ isSelected }) => `sqlc-etab${isSelected ? ' active' : ''}`}>
                <span className="sqlc-etab-title">{e.title}</span>
                <TabCloseButton className="sqlc-etab-close" label={t('tools.sql.closeEditor', { title: e.title })} onClose={() => closeEditor(e.id)} />
              </Tab>
            ))}
          </TabList>
          <TipButton className="sqlc-etab-add" label={t('tools.sql.newEditor')} onPress={() => addEditor()}>+</TipButton>
        </div>
        <TabPanel id={active.id} className="sqlc-panel">
          <div className="sqlc-toolbar">
            {running ? (
              <Button variant="danger" onClick={() => void cancel()}>{t('tools.sql.cancel')}</Button>
            ) : (
              <Button onClick={() => void run()} title={t('tools.sql.runTip')}>{t('tools.sql.run')}</Button>
            )}
            <Button variant="secondary" onClick={() => void run(true)} disabled={!!running} title={t('tools.sql.explainTip')}>{t('tools.sql.explain')}</Button>
            <Button variant="secondary" onClick={format} disabled={!!running}>{t('tools.sql.format')}</Button>
            <input className="sqlc-name" aria-label={t('tools.sql.queryName')} value={active.title} onChange={(ev) => update((s) => ({ ...s, editors: s.editors.map((e) => (e.id === active.id ? { ...e, title: ev.target.value } : e)) }))} />
            <Button variant="secondary" onClick={() => void save()}>{t('tools.sql.save')}</Button>
            <label className="sqlc-timeout" title={t('tools.sql.timeoutTip')}>
              {t('tools.sql.timeout')}
              <SqlTimeoutInput label={t('tools.sql.timeoutLabel')} />
              {t('tools.sql.secondsUnit')}
            </label>
            <span className="muted sqlc-engine">{schema ? engineName(schema.engine) : ''}</span>
            {running ? <span className="sqlc-running" role="status">{t('tools.sql.running')}</span> : null}
          </div>
          <div className="sqlc-editor">
            <SqlEditor key={active.id} ref={editor} value={active.text} onChange={setText} onRun={() => void run()} engine={engine} schema={schema} dark={darkTheme.value} label={t('tools.sql.editorLabel', { title: active.title })} />
          </div>
          <div className="sqlc-results">
            {view?.error ? <div className="sqlr-message sqlr-error" role="alert">{view.error}</div> : null}
            {view?.answer ? <ResultView key={view.answer.runId} answer={view.answer} explain={view.explain} docText={view.docText} offset={view.offset} /> : null}
            {!view ? <p className="muted sqlc-hint">{t('tools.sql.hint')}</p> : null}
          </div>
        </TabPanel>
      </Tabs>
    </section>
  );
}
