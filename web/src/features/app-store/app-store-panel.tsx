/**
 * The App Store tab (Super Admin): a card per plugin with its icon, category, description and
 * status (active, installed but off, not installed), grouped by category; Install / Configure opens
 * the plugin's form.
 */
import { useEffect, useState } from 'react';
import { appStoreApi, type Plugin } from '../../api/app-store';
import { Button, FormMessage } from '../../components/form';
import { isSuperAdmin } from '../../stores/session';
import { PluginForm } from './plugin-form';
import { loadBranding } from './branding-store';
import { PluginIcon } from './plugin-icon';

const CATEGORIES = ['Email', 'Storage', 'Chat', 'Branding'] as const;

const status = (p: Plugin) => (p.active ? 'Active' : p.installed ? 'Installed, off' : 'Not installed');

export function AppStorePanel() {
  const [plugins, setPlugins] = useState<Plugin[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<Plugin | null>(null);
  const load = () => appStoreApi.list().then(setPlugins, (e) => setError((e as Error).message));
  useEffect(() => {
    if (isSuperAdmin.value) void load();
  }, []);
  if (!isSuperAdmin.value) {
    return (
      <div className="panel" role="region" aria-label="App Store">
        <h2>App Store</h2>
        <p>Only the Super Admin installs and configures plugins.</p>
      </div>
    );
  }
  return (
    <div className="panel app-store" role="region" aria-label="App Store">
      <h2>App Store</h2>
      <p className="muted">Plugins are shared by the whole Tablo instance. Secrets are kept encrypted and never shown again.</p>
      <FormMessage kind="error" text={error} />
      {CATEGORIES.map((cat) => (
        <section key={cat} aria-label={`${cat} plugins`}>
          <h3>{cat}</h3>
          <div className="plugin-cards">
            {plugins.filter((p) => p.category === cat).map((p) => (
              <article key={p.title} className={`plugin-card${p.active ? ' is-active' : ''}`} aria-label={`${p.title} plugin`}>
                <div className="plugin-card-head">
                  <span className="plugin-icon"><PluginIcon name={p.icon} /></span>
                  <div>
                    <strong>{p.title}</strong>
                    <div className="muted plugin-category">{p.category}</div>
                  </div>
                  <span className={`plugin-status status-${p.active ? 'on' : p.installed ? 'off' : 'none'}`} data-testid={`status-${p.title}`}>{status(p)}</span>
                </div>
                <p className="plugin-description">{p.description}</p>
                <Button variant={p.installed || p.active ? 'secondary' : 'primary'} onClick={() => setOpen(p)}>{p.installed || p.active ? 'Configure' : 'Install'}</Button>
              </article>
            ))}
          </div>
        </section>
      ))}
      {open ? <PluginForm plugin={open} onCancel={() => setOpen(null)} onDone={() => { setOpen(null); void load(); void loadBranding(); }} /> : null}
    </div>
  );
}
