/** The text of a plugin card and form in the current language: the server sends its descriptions and labels in English. */
import type { Plugin, PluginField } from '../../api/app-store';
import { t, type MessageKey } from '../../i18n';

/** A plugin's name in the current language: the server's for proper names (SMTP, S3, Slack…), ours for common words. */
export function pluginName(p: Pick<Plugin, 'title'>): string {
  switch (p.title) {
    case 'Branding': return t('admin.appStore.nameBranding');
    case 'Local': return t('admin.appStore.nameLocal');
    default: return p.title;
  }
}

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

/** Fields of the plugins the app knows, whose labels it has in every language. */
const KNOWN_FIELDS: Record<string, Record<string, MessageKey>> = {
  SMTP: {
    host: 'admin.appStore.field.host',
    port: 'admin.appStore.field.port',
    secure: 'admin.appStore.field.secure',
    user: 'admin.appStore.field.user',
    password: 'admin.appStore.field.password',
    from: 'admin.appStore.field.from',
    rejectUnauthorized: 'admin.appStore.field.rejectUnauthorized',
  },
  Local: { folder: 'admin.appStore.field.folder' },
  S3: {
    endpoint: 'admin.appStore.field.endpoint',
    region: 'admin.appStore.field.region',
    bucket: 'admin.appStore.field.bucket',
    accessKeyId: 'admin.appStore.field.accessKeyId',
    secretAccessKey: 'admin.appStore.field.secretAccessKey',
    pathStyle: 'admin.appStore.field.pathStyle',
    prefix: 'admin.appStore.field.prefix',
  },
  Branding: { title: 'admin.appStore.field.title', logoUrl: 'admin.appStore.field.logoUrl' }, // i18n-ignore (a field name and its key)
};

/** A plugin field's label in the current language (the server's English label for a field it does not know). */
export function pluginFieldLabel(p: Pick<Plugin, 'title' | 'category'>, f: Pick<PluginField, 'name' | 'label'>): string {
  if (p.category === 'Chat' && f.name === 'webhookUrl') return t('admin.appStore.field.webhookUrl', { title: p.title });
  const key = KNOWN_FIELDS[p.title]?.[f.name];
  return key ? t(key) : f.label;
}
