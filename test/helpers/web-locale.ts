/** Runs `run` with the web app's language set to `code`, then sets the language back. */
import { locale, type LocaleCode } from '../../web/src/i18n';

export function inLocale(code: LocaleCode, run: () => void): void {
  const before = locale.value;
  locale.value = code;
  try {
    run();
  } finally {
    locale.value = before;
  }
}
