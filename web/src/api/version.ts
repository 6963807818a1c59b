/** This server's version, the latest release its update feed names, and its auto-update (/api/v1/version). */
import { http } from './http';

export interface Release { version: string; url?: string; sha256?: string; notes?: string }
export interface UpdateStatus {
  version: string;
  feed: boolean;
  latest: Release | null;
  newer: boolean;
  checkedAt: string | null;
  error?: string;
  /** How this server takes in a release: the binary replaces itself; the others only announce it. */
  install: 'binary' | 'docker' | 'notice' | 'source';
  /** A newer release found on the feed is installed by itself (Super Admin's switch). */
  autoUpdate: boolean;
  /** The version installed for the next start, if any. */
  installed: string | null;
  installing: boolean;
  /** Why the last automatic install failed. */
  installError?: string;
}

export const versionApi = {
  status: () => http<UpdateStatus>('/api/v1/version'),
  check: () => http<UpdateStatus>('/api/v1/version/check', { method: 'POST' }),
  install: () => http<{ msg: string; installed: string; previous: string }>('/api/v1/version/install', { method: 'POST' }),
  setAuto: (enabled: boolean) => http<UpdateStatus>('/api/v1/version/auto', { method: 'PUT', body: { enabled } }),
};
