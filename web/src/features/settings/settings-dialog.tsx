/** Settings: Appearance (dark mode, language, preset themes, a custom theme), Data (filters, link tables) and Version & Updates. */
import { useState } from 'react';
import { Dialog, Modal, ModalOverlay, Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { settingsOpen } from '../../actions/registry';
import { projectInfo } from '../../stores/session';
import { useSignals } from '../../stores/signals';
import { Button } from '../../components/form';
import { UpdatesSection } from './updates-section';
import { AppearanceSection } from './appearance-section';
import { DataSection } from './data-section';
import { InfoLinks } from './info-links';
import { t, tx } from '../../i18n';
import '../../components/components.css';

type Section = 'appearance' | 'data' | 'version';

export function SettingsDialog() {
  useSignals();
  const [tab, setTab] = useState<Section>('appearance');
  const [showRefresh, setShowRefresh] = useState(false);
  const close = () => (settingsOpen.value = false);
  return (
    <ModalOverlay isOpen={settingsOpen.value} isDismissable onOpenChange={(open) => !open && close()} className="dialog-backdrop">
      <Modal className="dialog settings">
        <Dialog className="aria-dialog settings-dialog" aria-label={t('common.settings.title')}>
          <Tabs selectedKey={tab} onSelectionChange={(key) => setTab(key as Section)}>
            <TabList className="settings-tabs" aria-label={t('common.settings.sections')}>
              <Tab id="appearance" className="settings-dialog-tab">{t('common.settings.appearance')}</Tab>
              <Tab id="data" className="settings-dialog-tab">{t('common.settings.data')}</Tab>
              <Tab id="version" className="settings-dialog-tab">{t('common.settings.versionUpdates')}</Tab>
            </TabList>
            <TabPanel id="appearance" className="settings-body">
              <AppearanceSection />
            </TabPanel>
            <TabPanel id="data" className="settings-body">
              <DataSection />
            </TabPanel>
            <TabPanel id="version" className="settings-body">
              <p>{tx('common.settings.tabloVersion', { version: <strong key="v">{projectInfo.value?.version}</strong> })}</p>
              <UpdatesSection onDoubleClick={() => setShowRefresh(true)} />
              <InfoLinks />
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
