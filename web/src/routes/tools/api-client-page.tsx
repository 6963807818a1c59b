/**
 * /apiClient: the API Client outside a project. Its requests, collections and history belong to a
 * project, so the page first asks which one (the choice is kept in ?project=), then shows the same
 * client as the project's API Client tab.
 */
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { Button as AriaButton, Label, ListBox, ListBoxItem, Popover, Select, SelectValue } from 'react-aria-components';
import { projectsApi, type ProjectSummary } from '../../api/projects';
import { ApiClientPanel } from '../../features/api-client/api-client-panel';
import { FormMessage } from '../../components/form';
import { t } from '../../i18n';

export function ApiClientPage() {
  const [params, setParams] = useSearchParams();
  const [projects, setProjects] = useState<ProjectSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    projectsApi.list().then(
      (list) => setProjects(list.filter((p) => p.status === 'started')),
      (e) => (setError((e as Error).message), setProjects([])),
    );
  }, []);
  const chosen = params.get('project');
  // Only a running project the caller belongs to opens; a lone one opens without asking.
  const open = projects?.find((p) => p.id === chosen) ?? (projects?.length === 1 ? projects[0] : undefined);
  return (
    <div className="page api-client-page">
      <div className="page-head">
        <h1>{t('pages.apiClient.title')}</h1>
        {projects && projects.length > 0 ? (
          <Select className="api-client-project" selectedKey={open?.id ?? null} onSelectionChange={(k) => k && setParams({ project: String(k) })} placeholder={t('pages.apiClient.choose')}>
            <Label>{t('pages.apiClient.project')}</Label>{' '}
            <AriaButton className="aria-select-button">
              <SelectValue />
              <span aria-hidden>▾</span>
            </AriaButton>
            <Popover className="aria-popover" placement="bottom end">
              <ListBox className="menu-list aria-menu">
                {projects.map((p) => (
                  <ListBoxItem key={p.id} id={p.id} className="menu-item" textValue={p.title}>
                    {p.title}
                  </ListBoxItem>
                ))}
              </ListBox>
            </Popover>
          </Select>
        ) : null}
      </div>
      <FormMessage kind="error" text={error} />
      {projects?.length === 0 && !error ? (
        <div className="empty-state">
          <p className="muted">{t('pages.apiClient.none')}</p>
          <Link className="btn btn-primary" to="/projects">{t('pages.apiClient.projects')}</Link>
        </div>
      ) : null}
      {projects && projects.length > 0 && !open ? <p className="muted">{t('pages.apiClient.pick')}</p> : null}
      {open ? <ApiClientPanel key={open.id} projectId={open.id} /> : null}
    </div>
  );
}
