/** The last API calls of this page (method, path, status, time), for the log window. */
import { signal } from './signals';

export interface HttpLogEntry {
  at: number;
  method: string;
  path: string;
  status: number;
  ms: number;
}

const MAX = 200;
export const httpLog = signal<HttpLogEntry[]>([]);

export function logCall(e: HttpLogEntry): void {
  httpLog.value = [e, ...httpLog.value].slice(0, MAX);
}
