/**
 * The rights of one role on one table: read, create and update for all columns, none or chosen
 * ones; delete; and a row condition in the where language (`$user.id` and `$user.email` stand for
 * the caller). Saving stores the rule; Restore default removes it.
 */
import { useState } from 'react';
import type { AclTable, ColumnGrant, TableRule } from '../../api/acl';
import { Button, FormMessage } from '../../components/form';
import { t } from '../../i18n';
import { roleName } from '../team/roles';
import { opName } from './roles-management';

const OPS = ['read', 'create', 'update'] as const;
type Mode = 'all' | 'none' | 'some';
const modeOf = (g: ColumnGrant): Mode => (g === true ? 'all' : g === false ? 'none' : 'some');

function ColumnChoice(props: { op: string; table: AclTable; grant: ColumnGrant; onChange: (g: ColumnGrant) => void }) {
  const mode = modeOf(props.grant);
  const chosen = new Set(Array.isArray(props.grant) ? props.grant : []);
  const setMode = (m: Mode) => props.onChange(m === 'all' ? true : m === 'none' ? false : props.table.columns.map((c) => c.cn));
  return (
    <fieldset className="acl-op">
      <legend>{opName(props.op)}</legend>
      <select aria-label={t('admin.acl.opColumns', { op: opName(props.op) })} value={mode} onChange={(e) => setMode(e.target.value as Mode)}>
        <option value="all">{t('admin.acl.allColumns')}</option>
        <option value="some">{t('admin.acl.chosenColumns')}</option>
        <option value="none">{t('admin.acl.notAllowed')}</option>
      </select>
      {mode === 'some' ? (
        <div className="acl-columns">
          {props.table.columns.map((c) => (
            <label key={c.cn}>
              <input
                type="checkbox"
                aria-label={t('admin.acl.opColumn', { op: opName(props.op), column: c._cn })}
                checked={chosen.has(c.cn)}
                onChange={(e) => {
                  const next = new Set(chosen);
                  if (e.target.checked) next.add(c.cn);
                  else next.delete(c.cn);
                  props.onChange(props.table.columns.map((x) => x.cn).filter((cn) => next.has(cn)));
                }}
              />
              {c._cn}
            </label>
          ))}
        </div>
      ) : null}
    </fieldset>
  );
}

export function RuleEditor(props: {
  table: AclTable;
  role: string;
  onSave: (rule: TableRule | null) => Promise<void>;
  onClose: () => void;
}) {
  const current = props.table.rules[props.role]!;
  const [rule, setRule] = useState<TableRule>({ read: current.read, create: current.create, update: current.update, delete: current.delete, where: current.where });
  const [error, setError] = useState<string | null>(null);
  const run = (r: TableRule | null) => props.onSave(r).then(props.onClose, (e) => setError((e as Error).message));
  return (
    <section className="acl-editor" aria-label={t('admin.acl.rightsOf', { role: roleName(props.role), table: props.table._tn })}>
      <h4>{t('admin.acl.roleOnTable', { role: roleName(props.role), table: props.table._tn })}</h4>
      <div className="acl-ops">
        {OPS.map((op) => (
          <ColumnChoice key={op} op={op} table={props.table} grant={rule[op]} onChange={(g) => setRule({ ...rule, [op]: g })} />
        ))}
        <fieldset className="acl-op">
          <legend>{opName('delete')}</legend>
          <label>
            <input type="checkbox" aria-label={t('admin.acl.deleteRows')} checked={rule.delete} onChange={(e) => setRule({ ...rule, delete: e.target.checked })} /> {t('admin.acl.mayDeleteRows')}
          </label>
        </fieldset>
      </div>
      <label className="acl-where">
        {t('admin.acl.rowCondition')}
        <input
          aria-label={t('admin.acl.rowCondition')}
          placeholder={t('admin.acl.rowConditionPlaceholder')}
          value={rule.where ?? ''}
          onChange={(e) => setRule({ ...rule, where: e.target.value || null })}
        />
      </label>
      <p className="muted">{t('admin.acl.rowConditionHelp')}</p>
      <FormMessage kind="error" text={error} />
      <div className="row-actions">
        <Button onClick={() => void run(rule)}>{t('admin.common.save')}</Button>
        <Button variant="secondary" onClick={() => void run(null)}>{t('admin.acl.restoreDefault')}</Button>
        <Button variant="ghost" onClick={props.onClose}>{t('admin.common.close')}</Button>
      </div>
    </section>
  );
}
