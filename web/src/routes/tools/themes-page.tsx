/** /inspire: the Themes screen, the settings dialog's Appearance tab as a page of its own. */
import { AppearanceSection } from '../../features/settings/appearance-section';
import { t } from '../../i18n';

export function ThemesPage() {
  return (
    <div className="page themes-page">
      <div className="page-head">
        <h1>{t('pages.themes.title')}</h1>
      </div>
      <p className="muted">{t('pages.themes.intro')}</p>
      <div className="settings-body">
        <AppearanceSection />
      </div>
    </div>
  );
}
