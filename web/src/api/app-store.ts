/** App Store calls (Super Admin): list plugins, save / uninstall, test, a chat plugin's webhook URL in full; the public branding. */
import { dashboardOp } from './projects';
import { http } from './http';

export interface PluginField { name: string; type: 'string' | 'number' | 'boolean' | 'enum'; label: string; required: boolean; secret: boolean; default?: unknown; options?: string[] }
export interface Plugin {
  title: string;
  category: 'Email' | 'Storage' | 'Chat' | 'Branding';
  icon: string;
  description: string;
  installed: boolean;
  active: boolean;
  fields: PluginField[];
  input: Record<string, unknown> | null;
  updatedAt: string | null;
}
export interface Branding { title: string | null; logoUrl: string | null }

export const appStoreApi = {
  list: async () => (await dashboardOp<{ list: Plugin[] }>('xcPluginList')).list,
  save: (title: string, input: Record<string, unknown>, active: boolean) => dashboardOp<{ msg: string }>('xcPluginSet', { args: { title, input, active } }),
  uninstall: (title: string) => dashboardOp<{ msg: string }>('xcPluginSet', { args: { title, input: null } }),
  test: (title: string, input: Record<string, unknown>, to?: string) => dashboardOp<{ ok: boolean; msg: string }>('xcPluginTest', { args: { title, input, to } }),
  /** A chat plugin's saved webhook URL in full (the list masks it): Show values. */
  secrets: async (title: string) => (await dashboardOp<{ input: Record<string, string> }>('xcPluginSecrets', { args: { title } })).input,
  /** Saves the Branding plugin with an uploaded logo (multipart: the call in `json`, the image in `file`). */
  saveWithLogo: (input: Record<string, unknown>, file: File) => {
    const form = new FormData();
    form.set('json', JSON.stringify({ api: 'xcPluginSet', args: { title: 'Branding', input, active: true } })); // i18n-ignore
    form.set('file', file);
    return http<{ msg: string }>('/dashboard', { query: { q: 'sqlOp_xcPluginSet' }, body: form });
  },
};

export const brandingApi = { get: () => http<Branding>('/api/branding', { noRefresh: true }) };
