/** Rows of a project table through the generated REST API. */
import { http } from './http';

type Row = Record<string, unknown>;
const base = (projectId: string, table: string) => `/nc/${encodeURIComponent(projectId)}/api/v1/${encodeURIComponent(table)}`;

export const recordsApi = {
  list: (projectId: string, table: string, q: { limit: number; offset: number; where?: string; sort?: string; hm?: string; bt?: string; mm?: string; [k: string]: string | number | undefined }) =>
    http<Row[]>(base(projectId, table), { query: q }),
  count: (projectId: string, table: string, where?: string) => http<{ count: number }>(`${base(projectId, table)}/count`, { query: { where } }),
  create: (projectId: string, table: string, row: Row) => http<Row>(base(projectId, table), { method: 'POST', body: row }),
  update: (projectId: string, table: string, id: string, changes: Row) => http<Row>(`${base(projectId, table)}/${encodeURIComponent(id)}`, { method: 'PUT', body: changes }),
  notLinked: (projectId: string, table: string, target: string, id: string, q: { where?: string; limit?: number }) =>
    http<{ list: Row[]; info: { count: number } }>(`${base(projectId, table)}/m2mNotChildren/${encodeURIComponent(target)}/${encodeURIComponent(id)}`, { query: q }),
  link: (projectId: string, table: string, id: string, target: string, targetId: string) =>
    http(`${base(projectId, table)}/${encodeURIComponent(id)}/mm/${encodeURIComponent(target)}/${encodeURIComponent(targetId)}`, { method: 'POST' }),
  unlink: (projectId: string, table: string, id: string, target: string, targetId: string) =>
    http(`${base(projectId, table)}/${encodeURIComponent(id)}/mm/${encodeURIComponent(target)}/${encodeURIComponent(targetId)}`, { method: 'DELETE' }),
  removeMany: (projectId: string, table: string, ids: string[]) => http<number>(`${base(projectId, table)}/bulk`, { method: 'DELETE', body: ids }),
  read: (projectId: string, table: string, id: string) => http<Row>(`${base(projectId, table)}/${encodeURIComponent(id)}`),
  updateMany: (projectId: string, table: string, rows: Row[]) => http<number>(`${base(projectId, table)}/bulk`, { method: 'PUT', body: rows }),
  createMany: (projectId: string, table: string, rows: Row[]) => http<unknown>(`${base(projectId, table)}/bulk`, { method: 'POST', body: rows }),
  remove: (projectId: string, table: string, id: string) => http<number>(`${base(projectId, table)}/${encodeURIComponent(id)}`, { method: 'DELETE' }),
};
