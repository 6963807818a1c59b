/**
 * Roles Management: a table x role grid of read / create / update / delete toggles (all columns,
 * chosen columns shown half-filled, or none), with an editor per cell for column choices and the
 * row condition. Owners and creators always have every right, so they are not in the grid.
 */
import { useEffect, useState } from 'react';
import { aclApi, type AclTable, type ColumnGrant, type TableRule } from '../../api/acl';
import { FormMessage } from '../../components/form';
import { track } from '../../stores/notifications';
import { RuleEditor } from './rule-editor';

const OPS = ['read', 'create', 'update', 'delete'] as const;
type Op = (typeof OPS)[number];
const LETTER: Record<Op, string> = { read: 'R', create: 'C', update: 'U', delete: 'D' };

const stateOf = (g: ColumnGrant): 'on' | 'off' | 'some' => (g === true ? 'on' : g === false ? 'off' : 'some');

function RuleCell(props: { table: AclTable; role: string; onToggle: (op: Op) => void; onEdit: () => void }) {
  const rule = props.table.rules[props.role]!;
  return (
    <div className="acl-cell">
      {OPS.map((op) => {
        const s = stateOf(rule[op]);
        return (
          <button
            key={op}
            className={`acl-toggle acl-${s}`}
            aria-pressed={s === 'on' ? 'true' : s === 'some' ? 'mixed' : 'false'}
            aria-label={`${props.role} ${op} ${props.table._tn}`}
            title={`${op}: ${s === 'on' ? 'allowed' : s === 'some' ? 'chosen columns' : 'not allowed'}`}
            onClick={() => props.onToggle(op)}
          >
            {LETTER[op]}
          </button>
        );
      })}
      <button className="acl-edit" aria-label={`Edit ${props.role} rights on ${props.table._tn}`} title={rule.where ? `Rows: ${rule.where}` : 'Columns and row condition'} onClick={props.onEdit}>
        {rule.where ? '⋯•' : '⋯'}
      </button>
    </div>
  );
}

export function RolesManagement(props: { projectId: string; dbAlias: string }) {
  const [data, setData] = useState<{ roles: string[]; list: AclTable[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState<{ tn: string; role: string } | null>(null);
  const load = () => aclApi.list(props.projectId, props.dbAlias).then(setData, (e) => setError((e as Error).message));
  useEffect(() => void load(), [props.projectId, props.dbAlias]);

  const save = async (t: AclTable, role: string, rule: TableRule | null) => {
    await track(`Rights of ${role} on ${t._tn}`, aclApi.save(props.projectId, props.dbAlias, t.tn, role, rule));
    await load();
  };
  const toggle = (t: AclTable, role: string, op: Op) => {
    const r = t.rules[role]!;
    const next: TableRule = { read: r.read, create: r.create, update: r.update, delete: r.delete, where: r.where };
    if (op === 'delete') next.delete = !r.delete;
    else next[op] = r[op] !== true;
    save(t, role, next).catch((e) => setError((e as Error).message));
  };
  const editTable = editing && data?.list.find((t) => t.tn === editing.tn);

  return (
    <section aria-label="Roles Management" className="acl-panel">
      <h3>Roles Management</h3>
      <p className="muted">
        Owners and creators can do everything. R, C, U and D allow reading, creating, updating and deleting rows of a table; a half-filled
        letter means chosen columns only, and a dot a row condition. ⋯ edits the columns and the row condition.
      </p>
      <FormMessage kind="error" text={error} />
      {!data ? (
        <p className="muted">Loading…</p>
      ) : (
        <table className="list-table acl-grid">
          <thead>
            <tr>
              <th>Table</th>
              {data.roles.map((r) => (
                <th key={r}>{r}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.list.map((t) => (
              <tr key={t.tn}>
                <td>
                  {t._tn}
                  {t.type === 'view' ? <span className="muted"> (view)</span> : null}
                </td>
                {data.roles.map((role) => (
                  <td key={role}>
                    <RuleCell table={t} role={role} onToggle={(op) => toggle(t, role, op)} onEdit={() => setEditing({ tn: t.tn, role })} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {editing && editTable ? (
        <RuleEditor key={`${editing.tn}:${editing.role}`} table={editTable} role={editing.role} onSave={(r) => save(editTable, editing.role, r)} onClose={() => setEditing(null)} />
      ) : null}
    </section>
  );
}
