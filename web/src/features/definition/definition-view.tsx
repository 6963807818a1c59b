/** A function, procedure or sequence definition, read-only, with SQL syntax highlighting. */
import { useEffect, useState } from 'react';
import hljs from 'highlight.js/lib/core';
import sql from 'highlight.js/lib/languages/sql';
import { dashboardApi } from '../../api/dashboard';
import type { TabType } from '../../stores/tabs';
import { t, tx } from '../../i18n';

hljs.registerLanguage('sql', sql);

const API = { function: 'functionList', procedure: 'procedureList', sequence: 'sequenceList' } as const;

export function DefinitionView(props: { projectId: string; dbAlias: string; type: Exclude<TabType, 'table' | 'view' | 'panel'>; name: string }) {
  const [html, setHtml] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    dashboardApi.routines(props.projectId, props.dbAlias, API[props.type]).then((list) => {
      const r = list.find((x) => x.name === props.name);
      if (!r) return setError(t('common.definition.gone', { name: props.name }));
      setHtml(hljs.highlight(r.definition ?? `-- ${t('common.definition.hidden')}`, { language: 'sql' }).value);
    }, (e) => setError((e as Error).message));
  }, [props.projectId, props.dbAlias, props.type, props.name]);
  if (error) return <div className="form-message form-message-error">{error}</div>;
  if (html === null) return <p className="muted">{t('common.definition.loading', { name: props.name })}</p>;
  return (
    <div className="definition">
      <div className="definition-head">
        {tx('common.definition.head', { type: props.type, name: <strong key="n">{props.name}</strong>, ro: (chunks) => <span key="ro" className="muted">{chunks}</span> })}
      </div>
      <pre className="hljs">
        <code dangerouslySetInnerHTML={{ __html: html }} />
      </pre>
    </div>
  );
}
