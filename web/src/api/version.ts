/** This server's version and the latest release its update feed names (GET /api/v1/version). */
import { http } from './http';

export interface Release { version: string; url?: string; sha256?: string; notes?: string }
export interface UpdateStatus { version: string; feed: boolean; latest: Release | null; newer: boolean; checkedAt: string | null; error?: string; install: 'binary' | 'docker' | 'source' }

export const versionApi = {
  status: () => http<UpdateStatus>('/api/v1/version'),
  check: () => http<UpdateStatus>('/api/v1/version/check', { method: 'POST' }),
  install: () => http<{ msg: string; installed: string; previous: string }>('/api/v1/version/install', { method: 'POST' }),
};
