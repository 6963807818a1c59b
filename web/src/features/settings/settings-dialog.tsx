/** Settings: Appearance (dark mode, preset themes, a custom theme) and Version & Updates. */
import { useEffect, useState } from 'react';
import { settingsOpen } from '../../actions/registry';
import { customTheme, darkTheme, PRESETS, THEME_KEYS, themeName } from '../../stores/settings';
import { projectInfo } from '../../stores/session';
import { useSignals } from '../../stores/signals';
import { Button } from '../../components/form';
import { SqlTimeoutField } from '../sql-editor/timeout-field';
import { UpdatesSection } from './updates-section';
import { LanguageSelect } from '../../components/language-menu';

export function SettingsDialog() {
  useSignals();
  const [tab, setTab] = useState<'appearance' | 'version'>('appearance');
  const [showRefresh, setShowRefresh] = useState(false);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && (settingsOpen.value = false);
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  if (!settingsOpen.value) return null;
  return (
    <div className="dialog-backdrop" onClick={() => (settingsOpen.value = false)}>
      <div className="dialog settings" role="dialog" aria-modal="true" aria-label="Settings" tabIndex={-1} ref={(el) => void (el && !el.contains(document.activeElement) && el.focus())} onClick={(e) => e.stopPropagation()}>
        <div className="settings-tabs" role="tablist">
          <button role="tab" aria-selected={tab === 'appearance'} onClick={() => setTab('appearance')}>Appearance</button>
          <button role="tab" aria-selected={tab === 'version'} onClick={() => setTab('version')}>Version & Updates</button>
        </div>
        {tab === 'appearance' ? (
          <div className="settings-body">
            <label className="check"><input type="checkbox" checked={darkTheme.value} onChange={(e) => (darkTheme.value = e.target.checked)} /> Dark mode</label>
            <LanguageSelect />
            <SqlTimeoutField />
            <div className="field"><span>Themes</span>
              <div className="theme-list">
                {[...Object.keys(PRESETS), 'Custom'].map((name) => (
                  <button key={name} className={`theme-chip${themeName.value === name ? ' active' : ''}`} onClick={() => (themeName.value = name)} aria-pressed={themeName.value === name}>
                    <span className="swatch" style={{ background: (name === 'Custom' ? customTheme.value : PRESETS[name]!).primary }} /> {name}
                  </button>
                ))}
              </div>
            </div>
            {themeName.value === 'Custom' ? (
              <div className="colour-grid">
                {THEME_KEYS.map((k) => (
                  <label key={k} className="colour"><input type="color" value={customTheme.value[k]} onChange={(e) => (customTheme.value = { ...customTheme.value, [k]: e.target.value })} aria-label={k} /> {k}</label>
                ))}
              </div>
            ) : null}
          </div>
        ) : (
          <div className="settings-body">
            <p>Tablo version <strong>{projectInfo.value?.version}</strong></p>
            <UpdatesSection onDoubleClick={() => setShowRefresh(true)} />
            {showRefresh ? (
              <Button variant="secondary" onClick={() => { localStorage.clear(); window.location.reload(); }}>Application refresh</Button>
            ) : null}
          </div>
        )}
        <div className="dialog-actions"><Button variant="secondary" onClick={() => (settingsOpen.value = false)}>Close</Button></div>
      </div>
    </div>
  );
}
