/**
 * The update status shared by the banner and the Version & Updates tab; read once per page load, again
 * every 10 minutes (spec 9), and every second while the server installs a release. The update
 * snackbars are shown from here.
 */
import { versionApi, type UpdateStatus } from '../../api/version';
import { t, type MessageKey } from '../../i18n';
import { signal } from '../../stores/signals';
import { toast } from '../../stores/toasts';
import { latestOnly } from '../../lib/latest';
import { LIMITS } from '../../lib/limits';

export const updateStatus = signal<UpdateStatus | null>(null);
const DISMISSED_KEY = 'tablo.updateDismissed';
/** The release whose banner was closed (it comes back for a newer one). */
export const dismissedVersion = signal<string | null>(localStorage.getItem(DISMISSED_KEY));

/**
 * The server's update messages (English) in the reader's language: the feed's and the installer's
 * sentences are recognised here; anything else is shown as the server wrote it.
 */
const SERVER_TEXTS: [RegExp, MessageKey][] = [
  [/^The update feed could not be reached/, 'updates.error.unreachable'],
  [/^The update feed did not answer in time/, 'updates.error.timeout'],
  [/^The update feed answered (?<status>\d+)/, 'updates.error.status'],
  [/^The update feed is not a release/, 'updates.error.invalid'],
  [/^There is no newer version to install/, 'updates.error.noNewer'],
  [/^An update is already being installed/, 'updates.error.busy'],
  [/^Tablo (?<version>\S+) is already installed/, 'updates.error.alreadyInstalled'],
  [/^Tablo runs in Docker/, 'updates.mode.docker'],
  [/^Tablo runs from source/, 'updates.mode.source'],
  [/^This server only announces new versions/, 'updates.mode.notice'],
  [/^The feed names no download for (?<version>\S+)/, 'updates.error.noUrl'],
  [/^The feed names no SHA-256 for (?<version>\S+)/, 'updates.error.noSha'],
  [/^The download of (?<version>\S+) does not match its SHA-256/, 'updates.error.shaMismatch'],
  [/^The download of (?<version>\S+) is larger than/, 'updates.error.tooLarge'],
  [/^The download of (?<version>\S+) (could not be reached|answered)/, 'updates.error.download'],
  [/^Tablo (?<version>\S+) could not be put beside the binary/, 'updates.error.write'],
  [/^Only the Super Admin updates Tablo/, 'updates.error.superAdmin'],
];

export function updateText(serverText: string): string {
  for (const [re, key] of SERVER_TEXTS) {
    const m = re.exec(serverText);
    if (m) return t(key, { ...m.groups });
  }
  return serverText;
}

/** The page's status reads: a check or an install begun after one is sent supersedes its answer. */
const statusReads = latestOnly();
const readStatus = () =>
  statusReads(versionApi.status(), (s) => {
    updateStatus.value = s;
    // The server is installing a release found by its own check: say when it is done.
    if (s.installing) void followInstall();
  });
let loading: Promise<void> | null = null;
/** Reads the status once per page load, then every LIMITS.releaseCheckMs, so a page left open learns of a release. */
export function loadUpdateStatus(): Promise<void> {
  if (!loading) {
    loading = readStatus();
    setInterval(() => void readStatus().catch(() => {}), LIMITS.releaseCheckMs);
  }
  return loading;
}

export async function checkForUpdates(): Promise<UpdateStatus> {
  statusReads.drop();
  const s = await versionApi.check();
  updateStatus.value = s;
  // With the auto-update on, the server may have started installing what it found.
  if (s.installing) void followInstall();
  toast(s.error ? 'error' : 'info', s.error ? updateText(s.error) : s.newer && s.latest ? t('updates.toast.available', { version: s.latest.version }) : t('updates.toast.latest'));
  return s;
}

/** Installs the newer release now (Super Admin); the snackbar asks for a restart. */
export async function installUpdate(): Promise<void> {
  try {
    statusReads.drop();
    await versionApi.install();
    const s = await versionApi.status();
    updateStatus.value = s;
    toast('success', t('updates.toast.installed', { version: s.installed ?? s.latest?.version ?? '' }), 8000);
  } catch (e) {
    toast('error', updateText((e as Error).message), 6000);
  }
}

let watching = false;
/** Reads the status every second while the server installs a release, then says how it went. */
async function followInstall(): Promise<void> {
  if (watching) return;
  watching = true;
  try {
    let s = updateStatus.value;
    for (let i = 0; i < 600 && s?.installing; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      s = await versionApi.status().catch(() => s);
      updateStatus.value = s;
    }
    if (s?.installed) toast('success', t('updates.toast.installed', { version: s.installed }), 8000);
    else if (s?.installError) toast('error', updateText(s.installError), 6000);
  } finally {
    watching = false;
  }
}

/** Turns the auto-update on or off (Super Admin); turned on with a newer release known, it is installed now. */
export async function setAutoUpdate(enabled: boolean): Promise<void> {
  try {
    const s = await versionApi.setAuto(enabled);
    updateStatus.value = s;
    toast('info', enabled ? t('updates.toast.autoOn') : t('updates.toast.autoOff'), 4000);
    if (s.installing) void followInstall();
  } catch (e) {
    toast('error', updateText((e as Error).message), 6000);
  }
}

export function dismissUpdate(version: string): void {
  localStorage.setItem(DISMISSED_KEY, version);
  dismissedVersion.value = version;
}
