/**
 * Installed App Store plugins (nc_plugins). The input is kept as JSON whose secret fields are sealed
 * with the secret box (AES-256-GCM, src/lib/secret-box.ts): `{ "password": { "sealed": "v1:..." } }`.
 * Callers get plain inputs back; masking for answers happens in src/plugins/fields.ts.
 */
import type { MetaStore } from './store';
import { nowIso } from '../lib/ids';
import { open, seal } from '../lib/secret-box';

export interface PluginRow {
  title: string;
  category: string;
  input: Record<string, unknown>;
  active: boolean;
  updatedAt: string;
}

interface Raw {
  title: string;
  category: string;
  input: string;
  active: number;
  updated_at: string;
}

/** The plugins repository; `key` is the secret box key (base64). */
export function pluginsRepo(meta: MetaStore, key: string) {
  const unseal = (r: Raw): PluginRow => {
    const stored = JSON.parse(r.input) as Record<string, unknown>;
    const input: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(stored)) {
      input[k] = v && typeof v === 'object' && typeof (v as { sealed?: unknown }).sealed === 'string' ? open(key, (v as { sealed: string }).sealed) : v;
    }
    return { title: r.title, category: r.category, input, active: !!r.active, updatedAt: r.updated_at };
  };
  return {
    async list(): Promise<PluginRow[]> {
      return (await meta.all<Raw>('SELECT title, category, input, active, updated_at FROM nc_plugins ORDER BY title')).map(unseal);
    },
    async get(title: string): Promise<PluginRow | undefined> {
      const r = await meta.get<Raw>('SELECT title, category, input, active, updated_at FROM nc_plugins WHERE title = ?', [title]);
      return r && unseal(r);
    },
    /** Saves a plugin; secret fields are sealed. With `exclusive`, other plugins of the category are made inactive. */
    async save(p: { title: string; category: string; input: Record<string, unknown>; active: boolean; secrets: string[]; exclusive: boolean }): Promise<void> {
      const stored: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(p.input)) {
        stored[k] = p.secrets.includes(k) && typeof v === 'string' && v !== '' ? { sealed: seal(key, v) } : v;
      }
      const now = nowIso();
      await meta.transaction(async (tx) => {
        if (p.active && p.exclusive) await tx.run('UPDATE nc_plugins SET active = 0, updated_at = ? WHERE category = ? AND title <> ? AND active = 1', [now, p.category, p.title]);
        const changed = await tx.run('UPDATE nc_plugins SET input = ?, active = ?, updated_at = ? WHERE title = ?', [JSON.stringify(stored), p.active ? 1 : 0, now, p.title]);
        if (!changed.changes) {
          await tx.run('INSERT INTO nc_plugins (title, category, input, active, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', [p.title, p.category, JSON.stringify(stored), p.active ? 1 : 0, now, now]);
        }
      });
    },
    async remove(title: string): Promise<boolean> {
      return (await meta.run('DELETE FROM nc_plugins WHERE title = ?', [title])).changes > 0;
    },
  };
}

/** A short text that changes whenever a plugin row is added, changed or removed (for other instances to notice). */
export async function pluginsSignature(meta: MetaStore): Promise<string> {
  const r = await meta.get<{ n: number; at: string | null }>('SELECT COUNT(*) AS n, MAX(updated_at) AS at FROM nc_plugins');
  return `${r?.n ?? 0}:${r?.at ?? ''}`;
}
