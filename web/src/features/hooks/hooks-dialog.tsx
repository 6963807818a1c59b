/**
 * Webhooks of one table (from the table's menu in the tree or the grid toolbar): the list on the
 * left, the selected or new hook's editor and log on the right. A react-aria modal dialog: focus
 * stays inside, Esc or a click outside closes it and focus returns to the opener. Unsaved changes of
 * the editor are never dropped silently: closing or picking another hook asks first.
 */
import { useEffect, useState } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { dashboardApi, type ColumnMeta } from '../../api/dashboard';
import { hooksApi, type Hook } from '../../api/automations';
import { Button, FormMessage } from '../../components/form';
import { ConfirmDialog } from '../../components/overlays';
import { t } from '../../i18n';
import { useSignals } from '../../stores/signals';
import { hookDialog } from './hooks-store';
import { eventName, HookEditor } from './hook-editor';
import { actionTypes } from './action-fields';
import { useLatest } from '../../components/use-latest-answer';

export function HooksDialog() {
  useSignals();
  const d = hookDialog.value;
  if (!d) return null;
  return <HooksOf key={`${d.scope.projectId}:${d.scope.dbAlias}:${d.tn}`} {...d} />;
}

/** The summary line of a hook in the list: event, action (by its name in the current language) and paused. */
const summary = (h: Hook) => {
  const action = actionTypes().find((a) => a.type === h.notification.type)?.label ?? h.notification.type;
  return h.active ? t('admin.hooks.summary', { event: eventName(h.event), action }) : t('admin.hooks.summaryPaused', { event: eventName(h.event), action });
};

function HooksOf(props: { scope: { projectId: string; dbAlias: string }; tn: string; _tn: string }) {
  const [hooks, setHooks] = useState<Hook[] | null>(null);
  const [columns, setColumns] = useState<ColumnMeta[]>([]);
  const [selected, setSelected] = useState<string | 'new'>('new');
  const [error, setError] = useState<string | null>(null);
  const [fresh, setFresh] = useState<{ id: string; secret: string | null } | null>(null);
  const close = () => (hookDialog.value = null);
  // The editor's unsaved changes, and what waits for the user to say they may be dropped.
  const [dirty, setDirty] = useState(false);
  const [leaving, setLeaving] = useState<(() => void) | null>(null);
  const unlessDirty = (go: () => void) => (dirty ? setLeaving(() => go) : go());
  const pick = (id: string | 'new') => id !== selected && unlessDirty(() => setSelected(id));
  const latest = useLatest();
  const load = (select?: string | null) =>
    latest(hooksApi.list(props.scope, props.tn), (list) => {
      setHooks(list);
      if (select !== undefined) setSelected(select ?? (list[0]?.id ?? 'new'));
      else if (selected === 'new' && list[0] && hooks === null) setSelected(list[0].id);
    }, (e) => setError(e.message));
  useEffect(() => {
    void load();
    dashboardApi.tableMeta(props.scope.projectId, props.scope.dbAlias, props.tn).then((m) => setColumns(m.columns.filter((c) => !c.hidden)), (e) => setError((e as Error).message));
  }, []);
  const current = hooks?.find((h) => h.id === selected) ?? null;
  const title = t('admin.hooks.dialogTitle', { table: props._tn });
  return (
    <ModalOverlay isOpen isDismissable onOpenChange={(open) => !open && unlessDirty(close)} className="dialog-backdrop">
      <Modal className="dialog dialog-wide hooks-dialog">
        <Dialog className="aria-dialog" aria-label={title}>
          <div className="hooks-head">
            <Heading slot="title">{title}</Heading>
            <Button variant="ghost" onClick={() => unlessDirty(close)}>{t('admin.common.close')}</Button>
          </div>
          <FormMessage kind="error" text={error} />
          <div className="hooks-body">
            <nav className="hooks-list" aria-label={t('admin.hooks.listLabel')}>
              {(hooks ?? []).map((h) => (
                <button key={h.id} className={`hooks-item${h.id === selected ? ' active' : ''}`} aria-current={h.id === selected ? 'true' : undefined} onClick={() => pick(h.id)}>
                  <strong>{h.title}</strong>
                  <span className="muted">{summary(h)}</span>
                </button>
              ))}
              <Button variant="secondary" onClick={() => pick('new')}>{t('admin.hooks.newWebhook')}</Button>
            </nav>
            {hooks === null ? (
              <p className="muted">{t('admin.common.loading')}</p>
            ) : (
              <HookEditor key={current?.id ?? 'new'} scope={props.scope} tn={props.tn} columns={columns} hook={current} freshSecret={fresh && fresh.id === current?.id ? fresh.secret : null} onDirtyChange={setDirty} onSaved={(id, secret) => {
                if (id && secret !== undefined) setFresh({ id, secret });
                void load(id);
              }} />
            )}
          </div>
          {leaving ? (
            <ConfirmDialog
              heading={t('admin.hooks.discardHeading')}
              submitLabel={t('admin.hooks.discard')}
              onCancel={() => setLeaving(null)}
              onSubmit={() => {
                setLeaving(null);
                setDirty(false);
                leaving();
              }}
            >
              <p>{t('admin.hooks.discardBody')}</p>
            </ConfirmDialog>
          ) : null}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
