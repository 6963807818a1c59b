/** The update status shared by the banner and the Version & Updates tab; read once per page load. */
import { versionApi, type UpdateStatus } from '../../api/version';
import { signal } from '../../stores/signals';

export const updateStatus = signal<UpdateStatus | null>(null);
const DISMISSED_KEY = 'tablo.updateDismissed';
/** The release whose banner was closed (it comes back for a newer one). */
export const dismissedVersion = signal<string | null>(localStorage.getItem(DISMISSED_KEY));

let loading: Promise<void> | null = null;
export function loadUpdateStatus(): Promise<void> {
  loading ??= versionApi.status().then((s) => void (updateStatus.value = s), () => {});
  return loading;
}

export async function checkForUpdates(): Promise<UpdateStatus> {
  const s = await versionApi.check();
  updateStatus.value = s;
  return s;
}

export function dismissUpdate(version: string): void {
  localStorage.setItem(DISMISSED_KEY, version);
  dismissedVersion.value = version;
}
