/**
 * The running plugins of an app: reads the active rows of nc_plugins and sets the app's mail
 * transport (SMTP), its file storage (Local by default, or S3), its chat channels and its branding.
 * Applied at start and after every xcPluginSet.
 */
import type { BaseContext as AppContext } from '../context';
import { setMailTransport } from '../lib/mail';
import { setChatChannel, type ChatService } from '../lib/chat-channels';
import { pluginsRepo } from '../meta/plugins-repo';
import { CHAT_SERVICE } from './catalog';
import { smtpTransport, type SmtpInput } from './smtp';
import { localStorage, s3Storage, type FileStorage, type S3Input } from './storage';

export interface Branding {
  title: string | null;
  logoUrl: string | null;
}

interface State {
  storage: FileStorage;
  /** Storage by plugin name, for files stored under a plugin that is no longer the active one. */
  storages: Map<string, FileStorage>;
  branding: Branding;
  closeMail?: () => void;
}

const states = new WeakMap<object, State>();

const defaultLocal = (ctx: AppContext) => localStorage(ctx.dataDir, 'attachments');

function stateOf(ctx: AppContext): State {
  let s = states.get(ctx);
  if (!s) {
    const local = defaultLocal(ctx);
    states.set(ctx, (s = { storage: local, storages: new Map([['Local', local], [local.ref, local]]), branding: { title: null, logoUrl: null } }));
  }
  return s;
}

/** The storage new uploads go to. */
export const activeStorage = (ctx: AppContext): FileStorage => stateOf(ctx).storage;

/** A folder a Local storage may use (the Local plugin's schema checks the same). */
const LOCAL_FOLDER = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;

/**
 * The storage a file was put in, by what is stored with it (FileStorage.ref): 'S3'; 'Local:<folder>'
 * (that folder, whichever folder the Local plugin names now); 'Local' (files stored before folders
 * were recorded: the folder configured now).
 */
export function storageNamed(ctx: AppContext, name: string): FileStorage | undefined {
  const s = stateOf(ctx);
  const known = s.storages.get(name);
  if (known) return known;
  const folder = name.startsWith('Local:') ? name.slice('Local:'.length) : undefined;
  if (folder === undefined || !LOCAL_FOLDER.test(folder)) return undefined;
  const local = localStorage(ctx.dataDir, folder);
  s.storages.set(name, local);
  return local;
}

export const brandingOf = (ctx: AppContext): Branding => stateOf(ctx).branding;

/** Reads the plugins and applies them. */
export async function applyPlugins(ctx: AppContext): Promise<void> {
  const rows = await pluginsRepo(ctx.meta, ctx.secrets.connectionKey).list();
  const s = stateOf(ctx);
  const byTitle = new Map(rows.map((r) => [r.title, r]));
  const on = (title: string) => (byTitle.get(title)?.active ? byTitle.get(title) : undefined);

  s.closeMail?.();
  s.closeMail = undefined;
  const smtp = on('SMTP');
  if (smtp) {
    const t = smtpTransport(smtp.input as unknown as SmtpInput);
    setMailTransport(ctx, t);
    s.closeMail = t.close;
  } else setMailTransport(ctx, null);

  // Every configured storage stays readable (files uploaded before a switch), and every Local folder
  // files were put in (storageNamed); the active one takes uploads.
  const local = byTitle.get('Local');
  const localStore = local ? localStorage(ctx.dataDir, String(local.input.folder ?? 'attachments')) : defaultLocal(ctx);
  s.storages = new Map([
    ['Local', localStore],
    [localStore.ref, localStore],
  ]);
  const s3 = byTitle.get('S3');
  if (s3) s.storages.set('S3', s3Storage(s3.input as unknown as S3Input));
  s.storage = s3?.active ? s.storages.get('S3')! : localStore;

  for (const [title, service] of Object.entries(CHAT_SERVICE)) {
    const row = on(title);
    setChatChannel(ctx, service as ChatService, row ? String(row.input.webhookUrl) : null);
  }

  const b = on('Branding');
  s.branding = { title: b ? String(b.input.title) : null, logoUrl: b && b.input.logoUrl ? String(b.input.logoUrl) : null };
}

/** Closes the mail transport's connections (app shutdown). */
export function closePlugins(ctx: AppContext): void {
  states.get(ctx)?.closeMail?.();
}
