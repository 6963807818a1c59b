/** The × of a form field that clears it (a choice, a date, a date-time, a time), named "Clear <column>". */
import { Button as AriaButton } from 'react-aria-components';
import { X } from 'lucide-react';
import type { ColumnMeta } from '../../api/dashboard';
import { t } from '../../i18n';

/** × beside a field: clears it and gives the focus back to the field (its first segment or input). */
export function ClearButton(props: { id: string; column: ColumnMeta; onClear: () => void }) {
  return (
    <AriaButton
      className="icon-btn field-clear"
      aria-label={t('grid.field.clear', { column: props.column._cn })}
      onPress={() => {
        props.onClear();
        const el = document.getElementById(props.id);
        (el?.querySelector<HTMLElement>('[data-type]:not([data-type="literal"])') ?? el)?.focus();
      }}
    >
      <X size={13} aria-hidden />
    </AriaButton>
  );
}
