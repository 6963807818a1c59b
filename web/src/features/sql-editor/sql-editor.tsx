/**
 * One SQL editor: CodeMirror 6 through @uiw/react-codemirror with @codemirror/lang-sql in the
 * project's dialect, completion of its tables and columns and of keywords, bracket matching and
 * closing (the basic setup), Ctrl/Cmd+Enter to run, and the database's error marked at its spot.
 */
import { forwardRef, useImperativeHandle, useMemo, useRef } from 'react';
import CodeMirror, { type ReactCodeMirrorRef } from '@uiw/react-codemirror';
import { MSSQL, MariaSQL, PostgreSQL, SQLite, sql, type SQLDialect } from '@codemirror/lang-sql';
import { keymap, EditorView } from '@codemirror/view';
import { Prec } from '@codemirror/state';
import { lintGutter, setDiagnostics } from '@codemirror/lint';
import { closeCompletion } from '@codemirror/autocomplete';
import type { Engine, SqlSchema } from '../../api/sql-client';
import { t } from '../../i18n';

const DIALECTS: Record<Engine, SQLDialect> = { pg: PostgreSQL, mysql: MariaSQL, sqlite: SQLite, mssql: MSSQL };

/** What the client asks of an editor. */
export interface SqlEditorHandle {
  /** The selected text (with its offset) when there is a selection, else the whole text from 0. */
  runnable(): { text: string; offset: number };
  /** Marks an error at an offset of the whole text (or clears marks with null). */
  markError(at: { from: number; message: string } | null): void;
  replaceAll(text: string): void;
  focus(): void;
}

interface Props {
  value: string;
  onChange(text: string): void;
  onRun(): void;
  engine: Engine;
  schema: SqlSchema | null;
  dark: boolean;
  label: string;
}

export const SqlEditor = forwardRef<SqlEditorHandle, Props>(function SqlEditor(props, ref) {
  const cm = useRef<ReactCodeMirrorRef>(null);
  const onRun = useRef(props.onRun);
  onRun.current = props.onRun;

  const completionSchema = useMemo(() => {
    const out: Record<string, string[]> = {};
    for (const t of props.schema?.tables ?? []) out[t.name] = t.columns.map((c) => c.name);
    return out;
  }, [props.schema]);

  const extensions = useMemo(
    () => [
      sql({ dialect: DIALECTS[props.engine], schema: completionSchema, upperCaseKeywords: true, defaultSchema: props.schema?.schema ?? undefined }),
      Prec.highest(keymap.of([{ key: 'Mod-Enter', run: () => (onRun.current(), true) }])),
      lintGutter(),
      EditorView.contentAttributes.of({ 'aria-label': props.label }),
    ],
    [props.engine, completionSchema, props.label],
  );

  useImperativeHandle(ref, () => ({
    runnable() {
      const view = cm.current?.view;
      if (!view) return { text: props.value, offset: 0 };
      closeCompletion(view);
      const sel = view.state.selection.main;
      if (!sel.empty) return { text: view.state.sliceDoc(sel.from, sel.to), offset: sel.from };
      return { text: view.state.doc.toString(), offset: 0 };
    },
    markError(at) {
      const view = cm.current?.view;
      if (!view) return;
      if (!at) return void view.dispatch(setDiagnostics(view.state, []));
      const len = view.state.doc.length;
      const from = Math.min(Math.max(0, at.from), len);
      const word = /^[\w$"`'.]+/.exec(view.state.sliceDoc(from, Math.min(len, from + 64)))?.[0].length ?? 1;
      view.dispatch(setDiagnostics(view.state, [{ from, to: Math.min(len, from + word), severity: 'error', message: at.message }]));
    },
    replaceAll(text) {
      const view = cm.current?.view;
      if (view) view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
      else props.onChange(text);
    },
    focus() {
      cm.current?.view?.focus();
    },
  }));

  return (
    <CodeMirror
      ref={cm}
      className="sql-codemirror"
      value={props.value}
      height="100%"
      theme={props.dark ? 'dark' : 'light'}
      extensions={extensions}
      onChange={(v) => props.onChange(v)}
      basicSetup={{ bracketMatching: true, closeBrackets: true, autocompletion: true, highlightActiveLine: true, foldGutter: false }}
      placeholder={t('tools.sql.editorPlaceholder')}
    />
  );
});
