/**
 * Writers that are no member's account (a shared form, an API token, the master key) are named in the
 * row history and the audit log in the reader's language, not by the English marker the server records;
 * an e-mail is shown as it is.
 */
import { expect, test } from 'bun:test';
import { LOCALES } from '../../web/src/i18n';
import { authorName } from '../../web/src/i18n/author-names';
import { API_TOKEN_AUTHOR, MASTER_KEY_AUTHOR, SHARED_FORM_AUTHOR } from '../../src/lib/audit-authors';
import { inLocale } from '../helpers/web-locale';

test('each recorded marker has a name in every language, and e-mails stay', () => {
  const expected: Record<string, string[]> = {
    en: ['Shared form', 'API token', 'Master key'],
    fr: ['Formulaire partagé', 'Jeton d’API', 'Clé maîtresse'],
    es: ['Formulario compartido', 'Token de API', 'Clave maestra'],
    pt: ['Formulário compartilhado', 'Token de API', 'Chave mestra'],
    zh_CN: ['共享表单', 'API 令牌', '主密钥'],
  };
  for (const { code } of LOCALES) {
    inLocale(code, () => {
      expect([SHARED_FORM_AUTHOR, API_TOKEN_AUTHOR, MASTER_KEY_AUTHOR].map(authorName)).toEqual(expected[code]!);
      expect(authorName('ada@example.com')).toBe('ada@example.com');
    });
  }
});
