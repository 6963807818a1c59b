/**
 * Roles Management: a table x role grid of read / create / update / delete toggles (all columns,
 * chosen columns shown half-filled, or none), with an editor per cell for column choices and the
 * row condition. Owners and creators always have every right, so they are not in the grid. A
 * database of hundreds of tables shows them a page at a time, with a find field.
 */
import { useEffect, useState } from 'react';
import { aclApi, type AclTable, type ColumnGrant, type TableRule } from '../../api/acl';
import { FormMessage } from '../../components/form';
import { track } from '../../stores/notifications';
import { RuleEditor } from './rule-editor';
import { TipButton } from '../hooks/tip-button';
import { t } from '../../i18n';
import { roleName } from '../team/roles';
import { useLatest } from '../../components/use-latest-answer';
import { LIMITS } from '../../lib/limits';
import { TreeFind, matchesFind } from '../tree/tree-find';

const OPS = ['read', 'create', 'update', 'delete'] as const;
type Op = (typeof OPS)[number];
const LETTER: Record<Op, string> = { read: 'R', create: 'C', update: 'U', delete: 'D' }; // i18n-ignore

/** The name of a right in the current language (read, create, update, delete). */
export function opName(op: string): string {
  switch (op) {
    case 'read': return t('admin.acl.opRead');
    case 'create': return t('admin.acl.opCreate');
    case 'update': return t('admin.acl.opUpdate');
    case 'delete': return t('admin.acl.opDelete');
    default: return op;
  }
}

const stateOf = (g: ColumnGrant): 'on' | 'off' | 'some' => (g === true ? 'on' : g === false ? 'off' : 'some');

function RuleCell(props: { table: AclTable; role: string; onToggle: (op: Op) => void; onEdit: () => void }) {
  const rule = props.table.rules[props.role]!;
  return (
    <div className="acl-cell">
      {OPS.map((op) => {
        const s = stateOf(rule[op]);
        return (
          <TipButton
            key={op}
            className={`acl-toggle acl-${s}`}
            aria-pressed={s === 'on' ? 'true' : s === 'some' ? 'mixed' : 'false'}
            label={t('admin.acl.toggleLabel', { role: roleName(props.role), op: opName(op), table: props.table._tn })}
            tip={s === 'on' ? t('admin.acl.toggleAllowed', { op: opName(op) }) : s === 'some' ? t('admin.acl.toggleSome', { op: opName(op) }) : t('admin.acl.toggleNotAllowed', { op: opName(op) })}
            onPress={() => props.onToggle(op)}
          >
            {LETTER[op]}
          </TipButton>
        );
      })}
      <TipButton
        className="acl-edit"
        label={t('admin.acl.editRights', { role: roleName(props.role), table: props.table._tn })}
        tip={rule.where ? t('admin.acl.rowsWhere', { where: rule.where }) : t('admin.acl.columnsAndCondition')}
        onPress={props.onEdit}
      >
        <span aria-hidden>{rule.where ? '⋯•' : '⋯' /* i18n-ignore */}</span>
      </TipButton>
    </div>
  );
}

export function RolesManagement(props: { projectId: string; dbAlias: string }) {
  const [data, setData] = useState<{ roles: string[]; list: AclTable[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<{ tn: string; role: string } | null>(null);
  const [find, setFind] = useState('');
  const [shown, setShown] = useState<number>(LIMITS.aclPageSize);
  // Rights ticked quickly read the list after each: the last read's answer is the one shown.
  const latest = useLatest();
  const load = () => latest(aclApi.list(props.projectId, props.dbAlias), setData, (e) => setError(e.message));
  useEffect(() => void load(), [props.projectId, props.dbAlias]);

  const save = async (tb: AclTable, role: string, rule: TableRule | null) => {
    await track(t('admin.acl.rightsOf', { role: roleName(role), table: tb._tn }), aclApi.save(props.projectId, props.dbAlias, tb.tn, role, rule));
    await load();
  };
  const toggle = (tb: AclTable, role: string, op: Op) => {
    const r = tb.rules[role]!;
    const next: TableRule = { read: r.read, create: r.create, update: r.update, delete: r.delete, where: r.where };
    if (op === 'delete') next.delete = !r.delete;
    else next[op] = r[op] !== true;
    save(tb, role, next).catch((e) => setError((e as Error).message));
  };
  const editTable = editing && data?.list.find((x) => x.tn === editing.tn);
  const matching = data ? (find.trim() ? data.list.filter((x) => matchesFind({ title: x._tn, tn: x.tn }, find)) : data.list) : [];

  return (
    <section aria-label={t('admin.acl.rolesTitle')} className="acl-panel">
      <h3>{t('admin.acl.rolesTitle')}</h3>
      <p className="muted">{t('admin.acl.rolesHelp')}</p>
      <FormMessage kind="error" text={error} />
      {!data ? (
        // A refused or failed read says why above; only a read under way is 'Loading'.
        error ? null : <p className="muted">{t('admin.common.loading')}</p>
      ) : data.list.length === 0 ? (
        <p className="muted">{t('admin.acl.noTables')}</p>
      ) : (
        <>
        {data.list.length > LIMITS.aclPageSize ? (
          <div className="acl-find">
            <TreeFind group={t('admin.acl.tables')} value={find} onChange={(v) => (setFind(v), setShown(LIMITS.aclPageSize))} />
          </div>
        ) : null}
        {find.trim() && matching.length === 0 ? <p className="muted">{t('schema.tree.findNoMatch', { group: t('admin.acl.tables'), text: find.trim() })}</p> : null}
        <table className="list-table acl-grid">
          <thead>
            <tr>
              <th>{t('admin.acl.table')}</th>
              {data.roles.map((r) => (
                <th key={r}>{roleName(r)}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {matching.slice(0, shown).map((tb) => (
              <tr key={tb.tn}>
                <td>
                  {tb._tn}
                  {tb.type === 'view' ? <span className="muted"> {t('admin.acl.viewMark')}</span> : null}
                </td>
                {data.roles.map((role) => (
                  <td key={role}>
                    <RuleCell table={tb} role={role} onToggle={(op) => toggle(tb, role, op)} onEdit={() => setEditing({ tn: tb.tn, role })} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {matching.length > shown ? (
          <button className="tree-more" onClick={() => setShown(shown + LIMITS.aclPageSize)}>
            {t('schema.tree.showMore', { count: Math.min(LIMITS.aclPageSize, matching.length - shown) })}
          </button>
        ) : null}
        </>
      )}
      {editing && editTable ? (
        <RuleEditor key={`${editing.tn}:${editing.role}`} table={editTable} role={editing.role} onSave={(r) => save(editTable, editing.role, r)} onClose={() => setEditing(null)} />
      ) : null}
    </section>
  );
}
