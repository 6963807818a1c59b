/**
 * The formula editor: the expression, checked by the server while the user types (after a short
 * pause) with its error shown, and suggestions of functions and columns to insert.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { schemaApi, type DbScope, type FormulaCheck, type FormulaFunction } from '../../api/schema';
import { LIMITS } from '../../lib/limits';
import { applySuggestion, suggest } from './formula-suggest';
import { locale, t } from '../../i18n';
import { translateServerMessage } from '../../i18n/server-messages';

/** What the server's check says (in English) in the reader's language, when the catalogue has it. */
const said = (msg: string) => translateServerMessage(msg, locale.value);

const functionsCache = new Map<string, Promise<FormulaFunction[]>>();

/** The function list of a project database, asked for once. */
function functionsOf(scope: DbScope): Promise<FormulaFunction[]> {
  const key = `${scope.projectId}:${scope.dbAlias}`;
  if (!functionsCache.has(key)) {
    const p = schemaApi.formulaFunctions(scope);
    p.catch(() => functionsCache.delete(key));
    functionsCache.set(key, p);
  }
  return functionsCache.get(key)!;
}

/** The formula text area with its live check and suggestions. */
export function FormulaEditor(props: { scope: DbScope; tn: string; columns: string[]; value: string; onChange: (v: string) => void; editing?: string }) {
  const [fns, setFns] = useState<FormulaFunction[]>([]);
  const [check, setCheck] = useState<FormulaCheck | { pending: true } | null>(null);
  const [cursor, setCursor] = useState(props.value.length);
  const area = useRef<HTMLTextAreaElement>(null);
  // Where the caret goes once an inserted suggestion is in the text (set right after the render).
  const caretAfterInsert = useRef<number | null>(null);
  useLayoutEffect(() => {
    const at = caretAfterInsert.current;
    if (at === null || !area.current) return;
    caretAfterInsert.current = null;
    area.current.focus();
    area.current.setSelectionRange(at, at);
  }, [props.value]);
  useEffect(() => {
    functionsOf(props.scope).then(setFns, (e) => setCheck({ ok: false, msg: t('schema.formula.functionsFailed', { message: (e as Error).message }) }));
  }, [props.scope.projectId, props.scope.dbAlias]);
  useEffect(() => {
    if (!props.value.trim()) return setCheck(null);
    setCheck({ pending: true });
    let live = true;
    const timer = setTimeout(() => {
      schemaApi.formulaValidate(props.scope, props.tn, props.value, props.editing).then(
        (r) => live && setCheck(r),
        (e) => live && setCheck({ ok: false, msg: (e as Error).message }),
      );
    }, LIMITS.formulaCheckMs);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [props.value, props.tn]);
  const list = suggest(props.value, cursor, fns, props.columns, LIMITS.formulaSuggestions);
  const insert = (i: number) => {
    const next = applySuggestion(props.value, cursor, list[i]!);
    caretAfterInsert.current = next.cursor;
    props.onChange(next.text);
    setCursor(next.cursor);
  };
  const track = (e: { currentTarget: HTMLTextAreaElement }) => setCursor(e.currentTarget.selectionStart);
  return (
    <div className="formula-editor">
      <div className="field">
        <label htmlFor="f-formula">{t('schema.formula.label')}</label>
        <textarea
          id="f-formula"
          ref={area}
          rows={3}
          spellCheck={false}
          value={props.value}
          placeholder={`CONCAT({${t('schema.formula.exampleFirstName')}}, ' ', {${t('schema.formula.exampleLastName')}})`} // i18n-ignore
          aria-invalid={!!check && 'ok' in check && !check.ok}
          aria-describedby="formula-status"
          onChange={(e) => {
            props.onChange(e.target.value);
            setCursor(e.target.selectionStart);
          }}
          onKeyUp={track}
          onClick={track}
          onKeyDown={(e) => {
            // Tab takes the first suggestion while there are any (then moves on as usual).
            if (e.key === 'Tab' && !e.shiftKey && list.length) {
              e.preventDefault();
              insert(0);
            }
          }}
        />
      </div>
      <div id="formula-status" className="formula-status" aria-live="polite">
        {!check ? <span className="muted">{t('schema.formula.help', { brace: '{' })}</span> : 'pending' in check ? (
          <span className="muted">{t('schema.formula.checking')}</span>
        ) : check.ok ? (
          <span className="formula-ok">{t('schema.formula.valid', { type: check.type })}</span>
        ) : (
          <span className="field-error" role="alert">{check.position !== undefined ? t('schema.formula.errorAt', { message: said(check.msg), position: check.position + 1 }) : said(check.msg)}</span>
        )}
      </div>
      {list.length ? (
        <ul className="formula-suggestions" aria-label={t('schema.formula.suggestions')}>
          {list.map((s, i) => (
            <li key={`${s.kind}:${s.label}`}>
              <button type="button" className="suggestion" onMouseDown={(e) => e.preventDefault()} onClick={() => insert(i)}>
                <strong>{s.label}</strong> <span className="muted">{s.detail}</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
