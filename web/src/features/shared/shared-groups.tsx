/**
 * A shared grid grouped by a column, as the owner's grid shows it: one collapsible group per value
 * with its count (within the view, the search and any filter), the rows of an open group read page
 * by page through the link with the group's value as the where. Read-only; a row opens whole. The
 * rows of every group are counted above them, as the ungrouped grid counts its rows.
 */
import { useEffect, useState } from 'react';
import { sharedApi, type SharedViewMeta } from '../../api/shared';
import { GROUP_PAGE, GroupList, GroupRows } from '../grid/grouped-rows';
import { valueWhere } from '../views/lane-where';
import type { Row, RowSource } from '../views/row-source';
import { useLatest } from '../../components/use-latest-answer';
import { t } from '../../i18n';

type SharedColumn = SharedViewMeta['columns'][number];

export function SharedGroups(props: { uuid: string; password: string | null; meta: SharedViewMeta; source: RowSource; search: string; widthOf: (c: SharedColumn) => number; onOpen: (row: Row) => void }) {
  const [answer, setAnswer] = useState<{ column: string; groups: { value: unknown; count: number }[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [total, setTotal] = useState<number | null>(null);
  const latest = useLatest();
  useEffect(() => {
    let current = true;
    setTotal(null);
    void props.source.count(undefined, props.search || undefined).then((n) => current && setTotal(n), () => {});
    return () => void (current = false);
  }, [props.source, props.search]);
  useEffect(() => {
    setAnswer(null);
    void latest(
      sharedApi.groups(props.uuid, props.password, props.search),
      (a) => (setAnswer(a), setError(null)),
      (e) => setError(e.message),
    );
  }, [props.uuid, props.password, props.search]);
  if (error) return <div className="form-message form-message-error">{error}</div>;
  if (!answer) return <p className="muted">{t('grid.group.loading', { column: props.meta.query_params.groupBy ?? '' })}</p>;
  const { column, groups } = answer;
  return (
    <>
      <div className="grid-count" data-testid="row-count">{total === null ? t('views.shared.counting') : t('views.shared.rows', { count: total })}</div>
      <GroupList
        column={column}
        columnMeta={props.meta.columns.find((c) => c._cn === column)}
        groups={groups}
        rows={(g) => (
          <GroupRows
            columns={props.meta.columns}
            widthOf={props.widthOf}
            count={g.count}
            onOpen={props.onOpen}
            read={async (offset) => (await props.source.list({ limit: GROUP_PAGE, offset, where: valueWhere(column, g.value), search: props.search || undefined })).list}
          />
        )}
      />
    </>
  );
}
