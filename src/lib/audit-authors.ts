/**
 * The names the audit log and the row history record for writers that are no member's account; the
 * web app shows each in the reader's language (web/src/i18n/author-names.ts), so they stay as written here.
 */
export const SHARED_FORM_AUTHOR = 'shared form';
export const API_TOKEN_AUTHOR = 'API token';
export const MASTER_KEY_AUTHOR = 'master key';
