/**
 * What a project shows when no tab is open: its name and how to start; a project without tables
 * says so, with a "Create table" action for those who may change the schema.
 */
import { useEffect, useState } from 'react';
import { Table2 } from 'lucide-react';
import { dashboardApi } from '../../api/dashboard';
import { Button } from '../../components/form';
import { canShare } from '../../stores/project';
import { schemaDialog, schemaGeneration } from '../../stores/schema-ui';
import { useSignals } from '../../stores/signals';
import { t } from '../../i18n';
import { useLatest } from '../../components/use-latest-answer';

export function ProjectHome(props: { projectId: string; title: string }) {
  useSignals();
  const [tables, setTables] = useState<number | null>(null);
  const generation = schemaGeneration.value;
  const latest = useLatest();
  useEffect(() => void latest(dashboardApi.tables(props.projectId, 'db'), (list) => setTables(list.length), () => setTables(null)), [props.projectId, generation]);
  if (tables === 0) {
    return (
      <div className="empty-state" data-testid="empty-project">
        <Table2 size={40} aria-hidden className="empty-icon" />
        <h2>{t('common.home.noTables', { title: props.title })}</h2>
        <p className="muted">{canShare.value ? t('common.home.createFirst') : t('common.home.ownerCreates')}</p>
        {canShare.value ? <Button onClick={() => (schemaDialog.value = { kind: 'createTable', scope: { projectId: props.projectId, dbAlias: 'db' } })}>{t('common.home.createTable')}</Button> : null}
      </div>
    );
  }
  return (
    <div className="empty-state">
      <h2>{props.title}</h2>
      <p className="muted">{t('common.home.openFromTree')}</p>
    </div>
  );
}
