/** Settings: Appearance (dark mode, language, preset themes, a custom theme) and Version & Updates. */
import { useState } from 'react';
import { Dialog, Modal, ModalOverlay, Switch, Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { settingsOpen } from '../../actions/registry';
import { customTheme, darkTheme, PRESETS, THEME_KEYS, themeName } from '../../stores/settings';
import { projectInfo } from '../../stores/session';
import { useSignals } from '../../stores/signals';
import { Button } from '../../components/form';
import { SqlTimeoutField } from '../sql-editor/timeout-field';
import { UpdatesSection } from './updates-section';
import { LanguageSelect } from '../../components/language-menu';
import { t, tx } from '../../i18n';
import '../../components/components.css';

/** A theme's name in the current language (the presets and Custom). */
const themeLabel = (name: string): string => t('common.settings.themeName', { name });

/** A colour of the custom theme in the current language. */
const colourLabel = (key: string): string => t('common.settings.colourName', { key });

export function SettingsDialog() {
  useSignals();
  const [tab, setTab] = useState<'appearance' | 'version'>('appearance');
  const [showRefresh, setShowRefresh] = useState(false);
  const close = () => (settingsOpen.value = false);
  return (
    <ModalOverlay isOpen={settingsOpen.value} isDismissable onOpenChange={(open) => !open && close()} className="dialog-backdrop">
      <Modal className="dialog settings">
        <Dialog className="aria-dialog settings-dialog" aria-label={t('common.settings.title')}>
          <Tabs selectedKey={tab} onSelectionChange={(key) => setTab(key as 'appearance' | 'version')}>
            <TabList className="settings-tabs" aria-label={t('common.settings.sections')}>
              <Tab id="appearance" className="settings-dialog-tab">{t('common.settings.appearance')}</Tab>
              <Tab id="version" className="settings-dialog-tab">{t('common.settings.versionUpdates')}</Tab>
            </TabList>
            <TabPanel id="appearance" className="settings-body">
              <Switch className="aria-switch" isSelected={darkTheme.value} onChange={(on) => (darkTheme.value = on)}>
                <span className="switch-track" aria-hidden /> {t('common.settings.darkMode')}
              </Switch>
              <LanguageSelect />
              <SqlTimeoutField />
              <div className="field" role="group" aria-labelledby="settings-themes">
                <span id="settings-themes">{t('common.settings.themes')}</span>
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
            </TabPanel>
            <TabPanel id="version" className="settings-body">
              <p>{tx('common.settings.tabloVersion', { version: <strong key="v">{projectInfo.value?.version}</strong> })}</p>
              <UpdatesSection onDoubleClick={() => setShowRefresh(true)} />
              {showRefresh ? (
                <Button variant="secondary" onClick={() => { localStorage.clear(); window.location.reload(); }}>{t('common.settings.refresh')}</Button>
              ) : null}
            </TabPanel>
          </Tabs>
          <div className="dialog-actions"><Button variant="secondary" onClick={close}>{t('common.dialog.close')}</Button></div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
