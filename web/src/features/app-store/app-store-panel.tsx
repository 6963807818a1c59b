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
import { t } from '../../i18n';
import { useLatest } from '../../components/use-latest-answer';
import { pluginDescription, pluginName } from './plugin-description';

const CATEGORIES = ['Email', 'Storage', 'Chat', 'Branding'] as const;

const status = (p: Plugin) => (p.active ? t('admin.appStore.statusActive') : p.installed ? t('admin.appStore.statusOff') : t('admin.appStore.statusNone'));

/** A plugin category's name in the current language. */
export function categoryName(category: string): string {
  switch (category) {
    case 'Email': return t('admin.appStore.categoryEmail');
    case 'Storage': return t('admin.appStore.categoryStorage');
    case 'Chat': return t('admin.appStore.categoryChat');
    case 'Branding': return t('admin.appStore.categoryBranding');
    default: return category;
  }
}

export function AppStorePanel() {
  const [plugins, setPlugins] = useState<Plugin[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<Plugin | null>(null);
  const latest = useLatest();
  const load = () => latest(appStoreApi.list(), setPlugins, (e) => setError(e.message));
  useEffect(() => {
    if (isSuperAdmin.value) void load();
  }, []);
  if (!isSuperAdmin.value) {
    return (
      <div className="panel" role="region" aria-label={t('common.panels.appStore.title')}>
        <h2>{t('common.panels.appStore.title')}</h2>
        <p>{t('admin.appStore.superAdminOnly')}</p>
      </div>
    );
  }
  return (
    <div className="panel app-store" role="region" aria-label={t('common.panels.appStore.title')}>
      <h2>{t('common.panels.appStore.title')}</h2>
      <p className="muted">{t('admin.appStore.intro')}</p>
      <FormMessage kind="error" text={error} />
      {CATEGORIES.map((cat) => (
        <section key={cat} aria-label={t('admin.appStore.categoryPlugins', { category: categoryName(cat) })}>
          <h3>{categoryName(cat)}</h3>
          <div className="plugin-cards">
            {plugins.filter((p) => p.category === cat).map((p) => (
              <article key={p.title} className={`plugin-card${p.active ? ' is-active' : ''}`} aria-label={t('admin.appStore.pluginLabel', { title: pluginName(p) })}>
                <div className="plugin-card-head">
                  <span className="plugin-icon"><PluginIcon name={p.icon} /></span>
                  <div>
                    <strong>{pluginName(p)}</strong>
                    <div className="muted plugin-category">{categoryName(p.category)}</div>
                  </div>
                  <span className={`plugin-status status-${p.active ? 'on' : p.installed ? 'off' : 'none'}`} data-testid={`status-${p.title}`}>{status(p)}</span>
                </div>
                <p className="plugin-description">{pluginDescription(p)}</p>
                <Button variant={p.installed || p.active ? 'secondary' : 'primary'} onClick={() => setOpen(p)}>{p.installed || p.active ? t('admin.appStore.configure') : t('admin.appStore.install')}</Button>
              </article>
            ))}
          </div>
        </section>
      ))}
      {open ? <PluginForm plugin={open} onCancel={() => setOpen(null)} onDone={() => { setOpen(null); void load(); void loadBranding(); }} /> : null}
    </div>
  );
}
