/**
 * How the data screens behave: whether filters, sorts and the search apply as they change (else on
 * Apply or Enter), and whether the tree lists many-to-many link tables among the tables.
 * Shown in the settings dialog's Data tab.
 */
import { Switch } from 'react-aria-components';
import { autoApplyFilter, includeM2M } from '../../stores/settings';
import { useSignals } from '../../stores/signals';
import { t } from '../../i18n';

export function DataSection() {
  useSignals();
  return (
    <>
      <Switch className="aria-switch" isSelected={autoApplyFilter.value} onChange={(on) => (autoApplyFilter.value = on)}>
        <span className="switch-track" aria-hidden /> {t('common.settings.autoApplyFilter')}
      </Switch>
      <p className="muted settings-hint">{t('common.settings.autoApplyFilterHint')}</p>
      <Switch className="aria-switch" isSelected={includeM2M.value} onChange={(on) => (includeM2M.value = on)}>
        <span className="switch-track" aria-hidden /> {t('common.settings.includeM2M')}
      </Switch>
      <p className="muted settings-hint">{t('common.settings.includeM2MHint')}</p>
    </>
  );
}
