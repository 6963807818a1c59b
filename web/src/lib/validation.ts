/** Client-side checks with the spec's exact messages (section 5). */
import { LIMITS } from './limits';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** 'E-mail is required' or 'E-mail must be valid', else null. */
export function emailError(email: string): string | null {
  if (!email.trim()) return 'E-mail is required';
  if (!EMAIL.test(email.trim())) return 'E-mail must be valid';
  return null;
}

/** 'Password is required' or the minimum-length message, else null. */
export function passwordError(password: string): string | null {
  if (!password) return 'Password is required';
  if (password.length < LIMITS.passwordMinLength) return `Your password must be at least ${LIMITS.passwordMinLength} characters`;
  return null;
}
