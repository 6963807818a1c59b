/**
 * The Info tab as a page: the project (name, API type, environment), per database its REST and
 * GraphQL endpoints and Swagger docs with copy buttons, a first request to try, how many tables,
 * views, functions, procedures and sequences it holds, and the versions (Tablo, database engine).
 */
import { engineName } from '../../lib/engine-names';
import { useEffect, useState } from 'react';
import { BookOpen, Check, Code2, Copy, Database, FunctionSquare, ListOrdered, Table2, Eye, Workflow } from 'lucide-react';
import type { LucideIcon } from 'lucide-react';
import { http } from '../../api/http';
import { dashboardApi, type EnvList } from '../../api/dashboard';
import { currentProject } from '../../stores/project';
import { projectInfo } from '../../stores/session';
import { useSignals } from '../../stores/signals';
import { toast } from '../../stores/toasts';
import { copyText } from '../shared/share-dialog';
import { t, tx } from '../../i18n';
import { serverLink } from '../../api/app-url';

interface DbApi { apiType: string; swaggerUrl: string; gqlApiUrl: string; restApiUrl: string }
interface Counts { tables: number; views: number; functions: number; procedures: number; sequences: number; firstTable?: string }

const COUNTED: { key: keyof Omit<Counts, 'firstTable'>; label: (count: number) => string; icon: LucideIcon }[] = [
  { key: 'tables', label: (count) => t('common.info.tables', { count }), icon: Table2 },
  { key: 'views', label: (count) => t('common.info.views', { count }), icon: Eye },
  { key: 'functions', label: (count) => t('common.info.functions', { count }), icon: FunctionSquare },
  { key: 'procedures', label: (count) => t('common.info.procedures', { count }), icon: Workflow },
  { key: 'sequences', label: (count) => t('common.info.sequences', { count }), icon: ListOrdered },
];

/** The values with a copy button: the REST and GraphQL endpoints, and an example request. */
type Copied = 'rest' | 'graphql' | 'example';

/**
 * Counts what a database holds; a list the engine does not have counts as 0. The tables not read
 * (the project stopped, its database down) is the read's error, not a count of 0.
 */
async function countsOf(projectId: string, dbAlias: string): Promise<Counts> {
  const n = (p: Promise<unknown[]>) => p.then((l) => l.length, () => 0);
  const tables = await dashboardApi.tables(projectId, dbAlias);
  const [views, functions, procedures, sequences] = await Promise.all([
    n(dashboardApi.views(projectId, dbAlias)),
    n(dashboardApi.routines(projectId, dbAlias, 'functionList')),
    n(dashboardApi.routines(projectId, dbAlias, 'procedureList')),
    n(dashboardApi.routines(projectId, dbAlias, 'sequenceList')),
  ]);
  return { tables: tables.length, views, functions, procedures, sequences, firstTable: tables[0]?._tn };
}

/** A value with its copy button ("Copied" for a moment after). */
function CopyField(props: { what: Copied; value: string }) {
  const [copied, setCopied] = useState(false);
  const what = props.what;
  const copy = async () => {
    if (await copyText(props.value)) {
      setCopied(true);
      toast('success', t('common.info.copied', { what }));
      setTimeout(() => setCopied(false), 1500);
    } else toast('error', t('common.info.copyRefused', { what }));
  };
  const copyLabel = t('common.info.copy', { what });
  return (
    <div className="info-field">
      <span className="info-label">{t('common.info.field', { what })}</span>
      <code className="info-value">{props.value}</code>
      <button type="button" className="btn btn-secondary info-copy" aria-label={copyLabel} title={copyLabel} onClick={() => void copy()}>
        {copied ? <Check size={14} aria-hidden /> : <Copy size={14} aria-hidden />}
      </button>
    </div>
  );
}

export function InfoPage(props: { projectId: string }) {
  useSignals();
  const [apis, setApis] = useState<Record<string, DbApi> | null>(null);
  const [envs, setEnvs] = useState<EnvList | null>(null);
  // Per database: its counts, or why they were not read.
  const [counts, setCounts] = useState<Record<string, Counts | string>>({});
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    http<{ info: Record<string, DbApi> }>(`/nc/${props.projectId}/projectApiInfo`).then(
      (r) => {
        setApis(r.info);
        for (const alias of Object.keys(r.info))
          void countsOf(props.projectId, alias).then(
            (c) => setCounts((all) => ({ ...all, [alias]: c })),
            (e: unknown) => setCounts((all) => ({ ...all, [alias]: (e as Error).message })),
          );
      },
      (e) => setError((e as Error).message),
    );
    dashboardApi.envs(props.projectId).then(setEnvs, () => {});
  }, [props.projectId]);
  if (error) return <div className="form-message form-message-error">{error}</div>;
  const project = currentProject.value;
  const env = envs?.workingEnv;
  const graphqlFirst = project?.projectType === 'graphql';
  const api = graphqlFirst ? 'GraphQL' : 'REST'; // i18n-ignore (product names)
  const engineOf = (alias: string) => (env ? envs?.envs[env]?.dbs.find((d) => d.dbAlias === alias)?.client : undefined);
  return (
    <div className="panel info-page" role="region" aria-label={t('common.info.region')}>
      <header className="info-head">
        <h2>{project?.title ?? props.projectId}</h2>
        <p className="muted">
          {env ? tx('common.info.summaryEnv', { api, env, id: <code key="id">{props.projectId}</code> }) : tx('common.info.summary', { api, id: <code key="id">{props.projectId}</code> })}
        </p>
      </header>
      {apis === null ? <div className="skeleton-block" role="status" aria-label={t('common.loading')} /> : null}
      {Object.entries(apis ?? {}).map(([alias, api]) => {
        const read = counts[alias];
        const c = typeof read === 'string' ? undefined : read;
        const engine = engineOf(alias);
        return (
          <section key={alias} className="info-card" aria-label={t('common.info.database', { alias })}>
            <h3><Database size={16} aria-hidden /> {alias}{engine ? <span className="muted"> · {engineName(engine)}</span> : null}</h3>
            {typeof read === 'string' ? (
              <div className="form-message form-message-error">{read}</div>
            ) : (
              <div className="info-counts">
                {COUNTED.map(({ key, label, icon: Icon }) => (
                  <div key={key} className="info-count">
                    <Icon size={16} aria-hidden />
                    <strong data-testid={`count-${key}`}>{c ? c[key] : '…'}</strong>
                    <span className="muted">{label(c ? c[key] : 2)}</span>
                  </div>
                ))}
              </div>
            )}
            <h4>{t('common.info.endpoints')}</h4>
            {/* The project's own API first. */}
            {graphqlFirst ? <CopyField what="graphql" value={serverLink(api.gqlApiUrl)} /> : null}
            <CopyField what="rest" value={serverLink(api.restApiUrl)} />
            {graphqlFirst ? null : <CopyField what="graphql" value={serverLink(api.gqlApiUrl)} />}
            {c?.firstTable ? <CopyField what="example" value={`curl -H "xc-auth: $TOKEN" '${serverLink(api.restApiUrl)}/${c.firstTable}?limit=10'`} /> : null}{/* i18n-ignore */}
            <p className="info-links">
              <a className="btn btn-secondary" href={serverLink(api.swaggerUrl)} target="_blank" rel="noreferrer"><BookOpen size={14} aria-hidden /> {t('common.info.swagger')}</a>
              <span className="muted"><Code2 size={14} aria-hidden /> {tx('common.info.tokens', { auth: <code key="a">xc-auth</code>, token: <code key="t">xc-token</code> })}</span>
            </p>
          </section>
        );
      })}
      <section className="info-card" aria-label={t('common.info.versions')}>
        <h3>{t('common.info.versions')}</h3>
        <dl className="info-versions">
          <dt>Tablo</dt>{/* i18n-ignore */}
          <dd data-testid="tablo-version">{projectInfo.value?.version ?? '…'}</dd>
          {Object.keys(apis ?? {}).map((alias) => (
            <div key={alias} className="info-version-row">
              <dt>{t('common.info.database', { alias })}</dt>
              <dd>{engineOf(alias) ? engineName(engineOf(alias)!) : '…'}</dd>
            </div>
          ))}
        </dl>
      </section>
    </div>
  );
}
