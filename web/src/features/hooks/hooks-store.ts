/** Which table's webhooks the hook editor shows (null: closed). */
import { signal } from '../../stores/signals';
import type { DbScope } from '../../api/schema';

export const hookDialog = signal<{ scope: DbScope; tn: string; _tn: string } | null>(null);
