/**
 * The message catalogues: every language has exactly the English keys, with the same ICU
 * arguments and valid syntax; every English key is used by the web app's code; translations are
 * real (not English copied); and the web app holds no interface text outside the catalogues.
 */
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { AREAS, BY_AREA } from '../../web/src/i18n/catalogues';
import { LOCALES } from '../../web/src/i18n/locales';
import { browserLocale } from '../../web/src/i18n/locales';
import { ERROR_CODES } from '../../src/lib/error-codes';
import { PLUGINS } from '../../src/plugins/catalog';
import { pluginDescription, pluginName } from '../../web/src/features/app-store/plugin-description';
import { formatDate, formatNumber, formatRelative, t } from '../../web/src/i18n';
import { inLocale } from '../helpers/web-locale';

const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return p.endsWith('i18n/messages') ? [] : sources(p);
    return /\.tsx?$/.test(p) ? [readFileSync(p, 'utf8')] : [];
  });
const code = sources('web/src').join('\n');

/** The argument names of a message, with the kind of each (plain, plural, select, tag…). */
function argumentsOf(elements: MessageFormatElement[], into = new Map<string, number>()): Map<string, number> {
  for (const e of elements) {
    if ('value' in e && typeof e.value === 'string' && e.type !== TYPE.literal) into.set(e.value, e.type);
    if (e.type === TYPE.plural || e.type === TYPE.select) for (const o of Object.values(e.options)) argumentsOf(o.value, into);
    if (e.type === TYPE.tag) argumentsOf(e.children, into);
  }
  return into;
}

const codes = LOCALES.map((l) => l.code).filter((c) => c !== 'en');

describe('message catalogues', () => {
  for (const area of AREAS) {
    const en = BY_AREA[area]!.en;
    test(`${area}: keys start with the area's name`, () => {
      expect(Object.keys(en).filter((k) => !k.startsWith(`${area}.`))).toEqual([]);
    });
    for (const c of codes) {
      test(`${area}: ${c} has exactly the English keys with the same arguments`, () => {
        const other = BY_AREA[area]![c];
        expect(Object.keys(en).filter((k) => !(k in other))).toEqual([]);
        expect(Object.keys(other).filter((k) => !(k in en))).toEqual([]);
        const mismatched = Object.keys(en).filter((k) => {
          const a = [...argumentsOf(parse(en[k]!)).keys()].sort().join();
          const b = [...argumentsOf(parse(other[k]!)).keys()].sort().join();
          return a !== b;
        });
        expect(mismatched).toEqual([]);
      });
      test(`${area}: ${c} is translated, not English copied`, () => {
        const other = BY_AREA[area]![c];
        // Messages of two words or more: at most a tenth may read as in English (names, codes, "OK").
        const long = Object.keys(en).filter((k) => /\p{L}+\s+\p{L}+/u.test(en[k]!));
        const same = long.filter((k) => other[k] === en[k]);
        expect(same.length).toBeLessThanOrEqual(Math.ceil(long.length / 10));
      });
    }
    test(`${area}: every English key is used by the code`, () => {
      // errors.<CODE> are looked up by the code the server sends (api/http.ts errorText).
      const used = (k: string) => code.includes(`'${k}'`) || code.includes(`"${k}"`) || code.includes(`\`${k}\``) || (area === 'errors' && ERROR_CODES.includes(k.slice('errors.'.length)));
      const unused = Object.keys(en).filter((k) => !used(k));
      expect(unused).toEqual([]);
    });
  }

  test('every error code the server sends has a translation', () => {
    expect(ERROR_CODES.filter((c) => !(`errors.${c}` in BY_AREA.errors!.en))).toEqual([]);
  });

  test('every message of every language parses as ICU', () => {
    const broken: string[] = [];
    for (const area of AREAS) for (const l of LOCALES) for (const [k, v] of Object.entries(BY_AREA[area]![l.code])) {
      try {
        parse(v);
      } catch (e) {
        broken.push(`${l.code} ${k}: ${(e as Error).message}`);
      }
    }
    expect(broken).toEqual([]);
  });

  test('the browser language picks the closest catalogue', () => {
    expect(browserLocale(['zh-TW'])).toBe('zh_CN');
    expect(browserLocale(['pt-BR', 'en'])).toBe('pt');
    expect(browserLocale(['de-DE', 'fr-FR'])).toBe('fr');
    expect(browserLocale(['de'])).toBe('en');
  });
});

describe('formatting follows the language', () => {
  const at = inLocale;

  test('numbers, dates and relative times in French, Chinese and English', () => {
    const now = Date.parse('2026-11-25T12:00:00Z');
    const twoMinutesAgo = new Date(now - 120_000).toISOString();
    at('fr', () => {
      expect(formatNumber(1234.5).replace(/\s/g, ' ')).toBe('1 234,5');
      expect(formatRelative(twoMinutesAgo, now)).toBe('il y a 2 minutes');
      expect(formatDate('2026-03-04T10:00:00Z', { month: 'long', day: 'numeric', timeZone: 'UTC' })).toBe('4 mars');
      expect(t('common.app.tryAgain')).toBe('Réessayer');
    });
    at('zh_CN', () => {
      expect(formatRelative(twoMinutesAgo, now)).toBe('2分钟前');
      expect(formatNumber(0.25, { style: 'percent' })).toBe('25%');
    });
    at('en', () => {
      expect(formatRelative(twoMinutesAgo, now)).toBe('2 minutes ago');
      expect(formatNumber(1234.5, { style: 'currency', currency: 'EUR' })).toBe('€1,234.50');
    });
  });

  test("App Store cards describe every plugin the server offers in the chosen language (English as the server's)", () => {
    for (const p of PLUGINS) {
      at('en', () => expect(pluginDescription(p)).toBe(p.description));
      for (const code of ['fr', 'es', 'pt', 'zh_CN'] as const) at(code, () => expect(pluginDescription(p)).not.toBe(p.description));
    }
    at('fr', () => expect(pluginDescription(PLUGINS.find((p) => p.title === 'Slack')!)).toBe('Publie les messages des webhooks dans un canal Slack.'));
  });

  test('App Store cards name a plugin called by a common word in the chosen language, proper names as they are', () => {
    at('en', () => expect(PLUGINS.map((p) => pluginName(p))).toEqual(PLUGINS.map((p) => p.title)));
    at('fr', () => expect(pluginName(PLUGINS.find((p) => p.title === 'Branding')!)).toBe('Image de marque'));
    at('zh_CN', () => expect(pluginName(PLUGINS.find((p) => p.title === 'Local')!)).toBe('本地'));
    for (const code of ['fr', 'es', 'pt', 'zh_CN'] as const) {
      at(code, () => {
        expect(pluginName(PLUGINS.find((p) => p.title === 'Branding')!)).not.toBe('Branding');
        expect(pluginName(PLUGINS.find((p) => p.title === 'Slack')!)).toBe('Slack');
      });
    }
  });

  test('messages of the chosen language, with their arguments', () => {
    at('pt', () => expect(t('errors.NOT_FOUND')).toBe('Não encontrado'));
    at('es', () => expect(t('errors.serverAnswered', { status: 502 })).toBe('El servidor respondió 502'));
  });
});
