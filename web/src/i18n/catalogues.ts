/**
 * The message catalogues: one JSON file per area of the app and language
 * (messages/<area>/<language>.json, flat keys that start with the area's name). English is the
 * source; test/unit/web-i18n.test.ts checks every other catalogue has exactly its keys.
 */
import type { LocaleCode } from './locales';
import common_en from './messages/common/en.json';
import common_zh_CN from './messages/common/zh_CN.json';
import common_fr from './messages/common/fr.json';
import common_es from './messages/common/es.json';
import common_pt from './messages/common/pt.json';
import app_en from './messages/app/en.json';
import app_zh_CN from './messages/app/zh_CN.json';
import app_fr from './messages/app/fr.json';
import app_es from './messages/app/es.json';
import app_pt from './messages/app/pt.json';
import updates_en from './messages/updates/en.json';
import updates_zh_CN from './messages/updates/zh_CN.json';
import updates_fr from './messages/updates/fr.json';
import updates_es from './messages/updates/es.json';
import updates_pt from './messages/updates/pt.json';
import grid_en from './messages/grid/en.json';
import grid_zh_CN from './messages/grid/zh_CN.json';
import grid_fr from './messages/grid/fr.json';
import grid_es from './messages/grid/es.json';
import grid_pt from './messages/grid/pt.json';
import views_en from './messages/views/en.json';
import views_zh_CN from './messages/views/zh_CN.json';
import views_fr from './messages/views/fr.json';
import views_es from './messages/views/es.json';
import views_pt from './messages/views/pt.json';
import schema_en from './messages/schema/en.json';
import schema_zh_CN from './messages/schema/zh_CN.json';
import schema_fr from './messages/schema/fr.json';
import schema_es from './messages/schema/es.json';
import schema_pt from './messages/schema/pt.json';
import tools_en from './messages/tools/en.json';
import tools_zh_CN from './messages/tools/zh_CN.json';
import tools_fr from './messages/tools/fr.json';
import tools_es from './messages/tools/es.json';
import tools_pt from './messages/tools/pt.json';
import admin_en from './messages/admin/en.json';
import admin_zh_CN from './messages/admin/zh_CN.json';
import admin_fr from './messages/admin/fr.json';
import admin_es from './messages/admin/es.json';
import admin_pt from './messages/admin/pt.json';
import errors_en from './messages/errors/en.json';
import errors_zh_CN from './messages/errors/zh_CN.json';
import errors_fr from './messages/errors/fr.json';
import errors_es from './messages/errors/es.json';
import errors_pt from './messages/errors/pt.json';
import pages_en from './messages/pages/en.json';
import pages_zh_CN from './messages/pages/zh_CN.json';
import pages_fr from './messages/pages/fr.json';
import pages_es from './messages/pages/es.json';
import pages_pt from './messages/pages/pt.json';

/** The areas, each owning the keys that start with '<area>.'. */
export const AREAS = ['common', 'app', 'updates', 'grid', 'views', 'schema', 'tools', 'admin', 'errors', 'pages'] as const;

const english = { ...common_en, ...app_en, ...updates_en, ...grid_en, ...views_en, ...schema_en, ...tools_en, ...admin_en, ...errors_en, ...pages_en };

/** A key of the English catalogue. */
export type MessageKey = keyof typeof english;

export const CATALOGUES: Record<LocaleCode, Record<string, string>> = {
  en: { ...common_en, ...app_en, ...updates_en, ...grid_en, ...views_en, ...schema_en, ...tools_en, ...admin_en, ...errors_en, ...pages_en },
  zh_CN: { ...common_zh_CN, ...app_zh_CN, ...updates_zh_CN, ...grid_zh_CN, ...views_zh_CN, ...schema_zh_CN, ...tools_zh_CN, ...admin_zh_CN, ...errors_zh_CN, ...pages_zh_CN },
  fr: { ...common_fr, ...app_fr, ...updates_fr, ...grid_fr, ...views_fr, ...schema_fr, ...tools_fr, ...admin_fr, ...errors_fr, ...pages_fr },
  es: { ...common_es, ...app_es, ...updates_es, ...grid_es, ...views_es, ...schema_es, ...tools_es, ...admin_es, ...errors_es, ...pages_es },
  pt: { ...common_pt, ...app_pt, ...updates_pt, ...grid_pt, ...views_pt, ...schema_pt, ...tools_pt, ...admin_pt, ...errors_pt, ...pages_pt },
};

/** Per area and language, for the catalogue test. */
export const BY_AREA: Record<string, Record<LocaleCode, Record<string, string>>> = {
  common: { en: common_en, zh_CN: common_zh_CN, fr: common_fr, es: common_es, pt: common_pt },
  app: { en: app_en, zh_CN: app_zh_CN, fr: app_fr, es: app_es, pt: app_pt },
  updates: { en: updates_en, zh_CN: updates_zh_CN, fr: updates_fr, es: updates_es, pt: updates_pt },
  grid: { en: grid_en, zh_CN: grid_zh_CN, fr: grid_fr, es: grid_es, pt: grid_pt },
  views: { en: views_en, zh_CN: views_zh_CN, fr: views_fr, es: views_es, pt: views_pt },
  schema: { en: schema_en, zh_CN: schema_zh_CN, fr: schema_fr, es: schema_es, pt: schema_pt },
  tools: { en: tools_en, zh_CN: tools_zh_CN, fr: tools_fr, es: tools_es, pt: tools_pt },
  admin: { en: admin_en, zh_CN: admin_zh_CN, fr: admin_fr, es: admin_es, pt: admin_pt },
  errors: { en: errors_en, zh_CN: errors_zh_CN, fr: errors_fr, es: errors_es, pt: errors_pt },
  pages: { en: pages_en, zh_CN: pages_zh_CN, fr: pages_fr, es: pages_es, pt: pages_pt },
};
