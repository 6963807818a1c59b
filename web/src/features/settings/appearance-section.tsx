/**
 * Appearance: dark mode, language, the SQL time limit, the preset themes and a custom theme with
 * a colour picker per colour. Shown in the settings dialog's Appearance tab and as the Themes page
 * (/inspire).
 */
import { useId } from 'react';
import { Switch } from 'react-aria-components';
import { customTheme, darkTheme, PRESETS, THEME_KEYS, themeName } from '../../stores/settings';
import { useSignals } from '../../stores/signals';
import { SqlTimeoutField } from '../sql-editor/timeout-field';
import { LanguageSelect } from '../../components/language-menu';
import { t } from '../../i18n';

/** A theme's name in the current language (the presets and Custom). */
const themeLabel = (name: string): string => t('common.settings.themeName', { name });

/** A colour of the custom theme in the current language. */
const colourLabel = (key: string): string => t('common.settings.colourName', { key });

export function AppearanceSection() {
  useSignals();
  // The page and the dialog may both show it: the label's id is made per instance.
  const themesId = useId();
  return (
    <>
      <Switch className="aria-switch" isSelected={darkTheme.value} onChange={(on) => (darkTheme.value = on)}>
        <span className="switch-track" aria-hidden /> {t('common.settings.darkMode')}
      </Switch>
      <LanguageSelect />
      <SqlTimeoutField />
      <div className="field" role="group" aria-labelledby={themesId}>
        <span id={themesId}>{t('common.settings.themes')}</span>
        <div className="theme-list">
          {[...Object.keys(PRESETS), 'Custom'].map((name) => (
            <button key={name} className={`theme-chip${themeName.value === name ? ' active' : ''}`} onClick={() => (themeName.value = name)} aria-pressed={themeName.value === name}>
              <span className="swatch" style={{ background: (name === 'Custom' ? customTheme.value : PRESETS[name]!).primary }} /> {themeLabel(name)}
            </button>
          ))}
        </div>
      </div>
      {themeName.value === 'Custom' ? (
        <div className="colour-grid">
          {THEME_KEYS.map((k) => (
            <label key={k} className="colour"><input type="color" value={customTheme.value[k]} onChange={(e) => (customTheme.value = { ...customTheme.value, [k]: e.target.value })} aria-label={colourLabel(k)} /> {colourLabel(k)}</label>
          ))}
        </div>
      ) : null}
    </>
  );
}
