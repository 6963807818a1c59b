/**
 * /datatable: the signed-in user's projects and their tables as one plain table, each row linked
 * to the table's grid in the dashboard. Hidden: reached after three right-clicks on the app bar.
 */
import { Fragment, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { projectsApi, type ProjectSummary } from '../../api/projects';
import { dashboardApi, type TableSummary } from '../../api/dashboard';
import { FormMessage } from '../../components/form';
import { tableLink } from '../../app/route-targets';
import { t } from '../../i18n';

/** A project with its tables, or why they are not listed. */
type Row = { project: ProjectSummary; tables: TableSummary[] | null; note: string | null };

export function DatatablePage() {
  const [rows, setRows] = useState<Row[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    (async () => {
      const projects = await projectsApi.list();
      return Promise.all(
        projects.map(async (project): Promise<Row> => {
          if (project.status !== 'started') return { project, tables: null, note: t('pages.datatable.stopped') };
          try {
            const tables = (await dashboardApi.tables(project.id, 'db')).filter((x) => x.type === 'table');
            return { project, tables, note: tables.length ? null : t('pages.datatable.noTables') };
          } catch (e) {
            return { project, tables: null, note: t('pages.datatable.unreadable', { error: (e as Error).message }) };
          }
        }),
      );
    })().then(
      (r) => live && setRows(r),
      (e) => live && (setError((e as Error).message), setRows([])),
    );
    return () => {
      live = false;
    };
  }, []);
  return (
    <div className="page">
      <div className="page-head">
        <h1>{t('pages.datatable.title')}</h1>
      </div>
      <p className="muted">{t('pages.datatable.intro')}</p>
      <FormMessage kind="error" text={error} />
      {rows === null ? <p className="muted">{t('pages.datatable.loading')}</p> : null}
      {rows?.length === 0 && !error ? <p className="muted">{t('pages.datatable.empty')}</p> : null}
      {rows?.length ? (
        <table className="list-table" aria-label={t('pages.datatable.title')}>
          <thead>
            <tr>
              <th>{t('pages.datatable.project')}</th>
              <th>{t('pages.datatable.table')}</th>
              <th>{t('pages.datatable.sqlName')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ project, tables, note }) => (
              <Fragment key={project.id}>
                {note ? (
                  <tr>
                    <td>{project.status === 'started' ? <Link to={`/nc/${encodeURIComponent(project.id)}`}>{project.title}</Link> : project.title}</td>
                    <td colSpan={2} className="muted">{note}</td>
                  </tr>
                ) : null}
                {(tables ?? []).map((table) => (
                  <tr key={table.tn}>
                    <td><Link to={`/nc/${encodeURIComponent(project.id)}`}>{project.title}</Link></td>
                    <td><Link to={tableLink(project.id, table._tn)}>{table._tn}</Link></td>
                    <td><code>{table.tn}</code></td>
                  </tr>
                ))}
              </Fragment>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
