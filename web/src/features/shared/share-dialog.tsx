/**
 * Share view: the view's public link (made on first open) with a copy button, 'Restrict access
 * with a password' and Save password, Allow CSV download, Copy API URL, and Delete link.
 */
import { useEffect, useState } from 'react';
import { Copy, Link2, Trash2 } from 'lucide-react';
import { viewsApi, type SavedView, type SharedLink, type ViewScope } from '../../api/views';
import { AriaDialog } from '../../components/aria-dialog';
import { Button, FormMessage } from '../../components/form';
import { toast } from '../../stores/toasts';
import { sharedApiUrl } from '../../api/shared';

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
  const copy = async (text: string, what: string) => {
    const ok = await copyText(text);
    toast(ok ? 'success' : 'error', ok ? `${what} copied` : 'Copy failed: select the text and copy it');
  };

  return (
    <AriaDialog heading={`Share view '${view.title}'`} onClose={props.onClose} wide>
      {!link && !error ? <p className="muted">Making the link…</p> : null}
      {link ? (
        <div className="share-body">
          <div className="share-link">
            <Link2 size={16} aria-hidden />
            <input aria-label="Shared link" readOnly value={link.url} onFocus={(e) => e.currentTarget.select()} />
            <Button variant="secondary" onClick={() => void copy(link.url, 'Link')}>
              <Copy size={14} aria-hidden /> Copy link
            </Button>
          </div>
          <p className="muted">People with the link see this view read-only{view.type === 'form' ? ' and can submit the form' : ''}: only its shown fields, with its filters and sorts. They need no account.</p>
          <label className="check">
            <input
              type="checkbox"
              checked={restrict}
              onChange={(e) => {
                setRestrict(e.target.checked);
                if (!e.target.checked && link.hasPassword) void run(async () => (await viewsApi.setPassword(scope, link.uuid, null), setLink({ ...link, hasPassword: false })), 'Password removed: the link opens without one.');
              }}
            />{' '}
            Restrict access with a password
          </label>
          {restrict ? (
            <div className="share-password">
              <input type="password" aria-label="Password" placeholder={link.hasPassword ? 'A password is set; type a new one to change it' : 'Password'} value={password} onChange={(e) => setPassword(e.target.value)} />
              <Button
                disabled={busy || !password}
                onClick={() => void run(async () => (await viewsApi.setPassword(scope, link.uuid, password), setLink({ ...link, hasPassword: true }), setPassword('')), 'Password saved.')}
              >
                Save password
              </Button>
            </div>
          ) : null}
          {view.type !== 'form' ? (
            <label className="check">
              <input
                type="checkbox"
                checked={csv}
                disabled={busy}
                onChange={(e) => {
                  const allow = e.target.checked;
                  setCsv(allow);
                  // The link keeps its address and its password.
                  void run(async () => {
                    await viewsApi.setCsv(scope, link.uuid, allow);
                    await load(false);
                  }, allow ? 'CSV download allowed.' : 'CSV download turned off.');
                }}
              />{' '}
              Allow CSV download
            </label>
          ) : null}
          <div className="share-actions">
            <Button variant="secondary" onClick={() => void copy(sharedApiUrl(window.location.origin, link.uuid, view.type), 'API URL')}>
              <Copy size={14} aria-hidden /> Copy API URL
            </Button>
            <Button
              variant="danger"
              disabled={busy}
              onClick={() => void run(async () => (await viewsApi.unshare(scope, link.uuid), setLink(null), props.onClose()), 'Link deleted.')}
            >
              <Trash2 size={14} aria-hidden /> Delete link
            </Button>
          </div>
        </div>
      ) : null}
      <FormMessage kind="success" text={note} />
      <FormMessage kind="error" text={error} />
    </AriaDialog>
  );
}
