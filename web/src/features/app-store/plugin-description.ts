/** The text of a plugin card in the current language: the server sends its descriptions in English. */
import type { Plugin } from '../../api/app-store';
import { t } from '../../i18n';

/** What a plugin does, in the current language (the server's English text for a plugin it does not know). */
export function pluginDescription(p: Pick<Plugin, 'title' | 'category' | 'description'>): string {
  switch (p.title) {
    case 'SMTP': return t('admin.appStore.descSmtp');
    case 'Local': return t('admin.appStore.descLocal');
    case 'S3': return t('admin.appStore.descS3');
    case 'Branding': return t('admin.appStore.descBranding');
    default: return p.category === 'Chat' ? t('admin.appStore.descChat', { title: p.title }) : p.description;
  }
}
