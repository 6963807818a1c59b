/** Client-side checks of the sign-in, sign-up and password forms, with the spec's messages in the current language. */
import { t } from '../../i18n';
import { LIMITS } from '../../lib/limits';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** 'E-mail is required' or 'E-mail must be valid', else null. */
export function emailError(email: string): string | null {
  if (!email.trim()) return t('admin.auth.emailRequired');
  if (!EMAIL.test(email.trim())) return t('admin.auth.emailInvalid');
  return null;
}

/** 'Password is required' or the minimum-length message, else null. */
export function passwordError(password: string): string | null {
  if (!password) return t('admin.auth.passwordRequired');
  if (password.length < LIMITS.passwordMinLength) return t('admin.auth.passwordTooShort', { min: LIMITS.passwordMinLength });
  return null;
}
