/** Durations and sizes of the tools (SQL, API, gRPC clients) in the current language. */
import { formatNumber, t } from '../../i18n';

/** "12 ms" (the unit as the language writes it). */
export const formatMs = (ms: number): string => formatNumber(Math.round(ms), { style: 'unit', unit: 'millisecond', unitDisplay: 'short' });

/** "512 B", "1.5 KB", "2.3 MB". */
export function formatBytes(n: number): string {
  const one = (v: number) => formatNumber(v, { maximumFractionDigits: 1, minimumFractionDigits: 1 });
  if (n < 1024) return t('tools.units.bytes', { size: formatNumber(n) });
  if (n < 1024 * 1024) return t('tools.units.kilobytes', { size: one(n / 1024) });
  return t('tools.units.megabytes', { size: one(n / 1024 / 1024) });
}
