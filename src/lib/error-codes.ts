/**
 * Stable codes for the messages people meet most, sent beside `msg` (`{ msg, code }`) so the web
 * app can show them in the reader's language. `msg` stays the English sentence of the spec; a
 * message without a code here is shown as it is.
 */
const CODES: Record<string, string> = {
  'Invalid email or password': 'INVALID_CREDENTIALS',
  'Not signed in': 'NOT_SIGNED_IN',
  'Not allowed': 'NOT_ALLOWED',
  'Not found': 'NOT_FOUND',
  'Token expired please login to continue': 'SESSION_EXPIRED',
  'This account is disabled': 'ACCOUNT_DISABLED',
  'An account with this e-mail already exists: sign in instead': 'ACCOUNT_EXISTS',
  'The current password is not correct': 'WRONG_CURRENT_PASSWORD',
  'The new password must differ from the current one': 'SAME_PASSWORD',
  'This password reset link is invalid or has expired': 'RESET_LINK_INVALID',
  'This invite link is invalid or has expired': 'INVITE_LINK_INVALID',
  'Invalid password': 'INVALID_PASSWORD',
  'Too many attempts, please try again later': 'TOO_MANY_ATTEMPTS',
  'Too many password attempts, please try again later': 'TOO_MANY_ATTEMPTS',
  'Unable to connect to database, please check your database is up.': 'DB_UNREACHABLE',
  'The metadata database is unreachable; try again in a moment.': 'META_UNREACHABLE',
  'Invalid database credentials.': 'DB_BAD_CREDENTIALS',
  'The database server does not accept SSL connections: set SSL usage to No or Preferred.': 'DB_NO_SSL',
  'The statement took too long and was cancelled': 'QUERY_TIMEOUT',
  'Something went wrong on the server; it has been logged.': 'INTERNAL',
};

/** The code of a message, when it has one. */
export const errorCode = (msg: string): string | undefined => CODES[msg];

/** Every code (the web app's catalogues hold a translation of each). */
export const ERROR_CODES = [...new Set(Object.values(CODES))];
