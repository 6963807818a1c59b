/**
 * Paths as the request log writes them: one-time secrets carried in a path (password reset and
 * e-mail verification tokens, invite tokens) are masked, so the log cannot be used to take them.
 */

/** Routes whose last segment is a secret token. */
const SECRET_TAIL = /^(\/auth\/password\/reset\/|\/auth\/token\/validate\/|\/api\/v1\/auth\/password\/reset\/|\/api\/v1\/auth\/token\/validate\/|\/user\/authentication\/signup\/|\/auth\/signup\/)[^/]+/;

/** The path with any secret token replaced by `***`. */
export const maskedPath = (path: string): string => path.replace(SECRET_TAIL, '$1***');
