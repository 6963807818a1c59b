/**
 * Who made a change, as the row history and the audit log name them: a member by their e-mail; the
 * writers that are nobody's account (a shared form, an API token, the master key), recorded under
 * English markers, in the current language.
 */
import { t } from './index';

/** The markers the server records for writers without an account (src/lib/audit-authors.ts). */
const MARKERS = {
  'shared form': 'common.author.sharedForm',
  'API token': 'common.author.apiToken',
  'master key': 'common.author.masterKey',
} as const;

/** The name to show for the recorded author `user` (an e-mail is shown as it is). */
export function authorName(user: string): string {
  const key = MARKERS[user as keyof typeof MARKERS];
  return key ? t(key) : user;
}
