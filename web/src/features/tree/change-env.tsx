/**
 * Change environment (spec 3 and 5): pick an environment and click Change. The server switches the
 * project's working environment; the client polls GET /dashboard every second until the server
 * answers, then reloads the page so the tree, tabs and project info come from the new environment
 * (on /start when the server then has no admin).
 */
import { useState } from 'react';
import { ConfirmDialog } from '../../components/overlays';
import { dashboardOp } from '../../api/projects';
import { http } from '../../api/http';
import { track } from '../../stores/notifications';
import { t } from '../../i18n';

const POLL_MS = 1000;
const POLL_TRIES = 60;

async function waitForServer(): Promise<void> {
  for (let i = 0; i < POLL_TRIES; i++) {
    try {
      await http('/dashboard');
      return;
    } catch {
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }
  throw new Error(t('schema.env.noAnswer'));
}

export function ChangeEnvButton(props: { projectId: string; envs: string[]; workingEnv: string }) {
  const [open, setOpen] = useState(false);
  const [env, setEnv] = useState(props.envs.find((e) => e !== props.workingEnv) ?? props.workingEnv);
  if (props.envs.length < 2) return null;
  const change = () => {
    setOpen(false);
    void track(t('schema.env.changeTo', { env }), dashboardOp('projectChangeEnv', { projectId: props.projectId, args: { env } }).then(waitForServer))
      .then(async () => {
        // Spec 4: a server left without an admin sends everyone to /start (sign-up or the index).
        const info = await http<{ projectHasAdmin?: boolean }>('/auth/type').catch(() => null);
        if (info && info.projectHasAdmin === false) window.location.hash = '#/start';
        window.location.reload();
      })
      .catch(() => {});
  };
  return (
    <>
      <button className="tree-leaf" onClick={() => setOpen(true)}>{t('schema.env.change')}</button>
      {open ? (
        <ConfirmDialog heading={t('schema.env.change')} submitLabel={t('schema.env.submit')} onCancel={() => setOpen(false)} onSubmit={change}>
          <label className="field">
            <span>{t('schema.env.label')}</span>
            <select value={env} onChange={(e) => setEnv(e.target.value)} aria-label={t('schema.env.label')}>
              {props.envs.map((e) => (
                <option key={e} value={e}>{e === props.workingEnv ? t('schema.env.active', { env: e }) : e}</option>
              ))}
            </select>
          </label>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
