/** The SQL Client's statement time-out: its toolbar field and a field of the Settings dialog (the same value). */
import { useState } from 'react';
import { useSignals } from '../../stores/signals';
import { t } from '../../i18n';
import { setTimeoutSeconds, timeoutSeconds } from './sql-state';

/**
 * The time-out in seconds. What is typed stays as typed while the field has the focus (it may be
 * emptied to type another number); a whole number from 1 to 3600 takes effect at once, anything
 * else is corrected when the field is left.
 */
export function SqlTimeoutInput({ label }: { label: string }) {
  useSignals();
  const [draft, setDraft] = useState<string | null>(null);
  return (
    <input
      type="number"
      min={1}
      max={3600}
      aria-label={label}
      value={draft ?? String(timeoutSeconds.value)}
      onChange={(e) => {
        const text = e.target.value;
        setDraft(text);
        const n = Number(text);
        if (text.trim() !== '' && Number.isInteger(n) && n >= 1 && n <= 3600) setTimeoutSeconds(n);
      }}
      onBlur={() => {
        if (draft !== null && draft.trim() !== '') setTimeoutSeconds(Number(draft));
        setDraft(null);
      }}
    />
  );
}

export function SqlTimeoutField() {
  return (
    <label className="field">
      <span>{t('tools.sql.settingsTimeout')}</span>
      <SqlTimeoutInput label={t('tools.sql.settingsTimeoutLabel')} />
    </label>
  );
}
