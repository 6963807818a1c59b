/** The SQL Client's statement time-out as a field of the Settings dialog (the same value as its toolbar's). */
import { useSignals } from '../../stores/signals';
import { t } from '../../i18n';
import { setTimeoutSeconds, timeoutSeconds } from './sql-state';

export function SqlTimeoutField() {
  useSignals();
  return (
    <label className="field">
      <span>{t('tools.sql.settingsTimeout')}</span>
      <input type="number" min={1} max={3600} value={timeoutSeconds.value} onChange={(e) => setTimeoutSeconds(Number(e.target.value))} aria-label={t('tools.sql.settingsTimeoutLabel')} />
    </label>
  );
}
