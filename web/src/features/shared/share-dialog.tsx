/**
 * Share view: the view's public link (made on first open) with a copy button, 'Restrict access
 * with a password' and Save password, Allow CSV download, Copy API URL, and Delete link.
 */
import { useEffect, useState } from 'react';
import { Switch } from 'react-aria-components';
import { Copy, Link2, Trash2 } from 'lucide-react';
import { viewsApi, type SavedView, type SharedLink, type ViewScope } from '../../api/views';
import { AriaDialog } from '../../components/aria-dialog';
import { Button, FormMessage } from '../../components/form';
import { toast } from '../../stores/toasts';
import { sharedApiUrl } from '../../api/shared';
import { appBase } from '../../api/app-url';
import { t } from '../../i18n';
import '../views/views-aria.css';

/** Copies text, answering whether it worked (a page without clipboard rights selects it instead). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** The share dialog of one view. */
export function ShareDialog(props: { scope: ViewScope; tn: string; view: SavedView; onClose: () => void }) {
  const { scope, view } = props;
  const [link, setLink] = useState<SharedLink | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [restrict, setRestrict] = useState(false);
  const [password, setPassword] = useState('');
  const [csv, setCsv] = useState(false);
  const [busy, setBusy] = useState(false);
  const [unsharing, setUnsharing] = useState(false);

  const load = async (create: boolean) => {
    try {
      let found = (await viewsApi.links(scope, props.tn)).find((l) => l.view_id === view.id) ?? null;
      if (!found && create) {
        await viewsApi.share(scope, { view_id: view.id, allowCsvDownload: csv });
        found = (await viewsApi.links(scope, props.tn)).find((l) => l.view_id === view.id) ?? null;
      }
      setLink(found);
      if (found) {
        setRestrict(found.hasPassword);
        setCsv(!!found.allowCsvDownload);
      }
      setError(null);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  useEffect(() => void load(true), [view.id]);

  const run = async (what: () => Promise<unknown>, done: string) => {
    setBusy(true);
    setNote(null);
    try {
      await what();
      setNote(done);
      setError(null);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const copy = async (text: string, copied: string) => {
    const ok = await copyText(text);
    toast(ok ? 'success' : 'error', ok ? copied : t('views.share.copyFailed'));
  };

  return (
    <AriaDialog heading={t('views.share.heading', { title: view.title })} onClose={props.onClose} wide>
      {!link && !error ? <p className="muted">{t('views.share.making')}</p> : null}
      {link ? (
        <div className="share-body">
          <div className="share-link">
            <Link2 size={16} aria-hidden />
            <input aria-label={t('views.share.link')} readOnly value={link.url} onFocus={(e) => e.currentTarget.select()} />
            <Button variant="secondary" onClick={() => void copy(link.url, t('views.share.linkCopied'))}>
              <Copy size={14} aria-hidden /> {t('views.share.copyLink')}
            </Button>
          </div>
          <p className="muted">{view.type === 'form' ? t('views.share.explainForm') : t('views.share.explain')}</p>
          <Switch
            className="views-switch"
            isSelected={restrict}
            onChange={(on) => {
              setRestrict(on);
              if (!on && link.hasPassword) void run(async () => (await viewsApi.setPassword(scope, link.uuid, null), setLink({ ...link, hasPassword: false })), t('views.share.passwordRemoved'));
            }}
          >
            <span className="switch-track" aria-hidden /> {t('views.share.restrict')}
          </Switch>
          {restrict ? (
            <div className="share-password">
              <input type="password" aria-label={t('views.share.password')} placeholder={link.hasPassword ? t('views.share.passwordSet') : t('views.share.password')} value={password} onChange={(e) => setPassword(e.target.value)} />
              <Button
                disabled={busy || !password}
                onClick={() => void run(async () => (await viewsApi.setPassword(scope, link.uuid, password), setLink({ ...link, hasPassword: true }), setPassword('')), t('views.share.passwordSaved'))}
              >
                {t('views.share.savePassword')}
              </Button>
            </div>
          ) : null}
          {view.type !== 'form' ? (
            <Switch
              className="views-switch"
              isSelected={csv}
              isDisabled={busy}
              onChange={(allow) => {
                setCsv(allow);
                // The link keeps its address and its password.
                void run(async () => {
                  await viewsApi.setCsv(scope, link.uuid, allow);
                  await load(false);
                }, allow ? t('views.share.csvAllowed') : t('views.share.csvOff'));
              }}
            >
              <span className="switch-track" aria-hidden /> {t('views.share.allowCsv')}
            </Switch>
          ) : null}
          <div className="share-actions">
            <Button variant="secondary" onClick={() => void copy(sharedApiUrl(appBase().replace(/\/$/, ''), link.uuid, view.type), t('views.share.apiUrlCopied'))}>
              <Copy size={14} aria-hidden /> {t('views.share.copyApiUrl')}
            </Button>
            <Button
              variant="danger"
              disabled={busy}
              onClick={() => setUnsharing(true)}
            >
              <Trash2 size={14} aria-hidden /> {t('views.share.deleteLink')}
            </Button>
          </div>
        </div>
      ) : null}
      <FormMessage kind="success" text={note} />
      <FormMessage kind="error" text={error} />
      {unsharing && link ? (
        <AriaDialog
          heading={t('views.share.deleteHeading', { title: view.title })}
          submitLabel={t('views.share.deleteLink')}
          submitVariant="danger"
          onClose={() => setUnsharing(false)}
          onSubmit={() => (setUnsharing(false), void run(async () => (await viewsApi.unshare(scope, link.uuid), setLink(null), toast('success', t('views.share.deleted', { title: view.title })), props.onClose()), t('views.share.linkDeleted')))}
        >
          <p className="muted">{t('views.share.deleteBody')}</p>
        </AriaDialog>
      ) : null}
    </AriaDialog>
  );
}
