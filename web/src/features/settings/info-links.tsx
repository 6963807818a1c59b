/** Links to the info pages (FAQ, terms, contribute, recommend), in the settings dialog and under each info page. */
import { Link } from 'react-router-dom';
import { settingsOpen } from '../../actions/registry';
import { t } from '../../i18n';

/** The info pages, by address and label. */
export const INFO_PAGES = [
  { to: '/info/faq', label: () => t('pages.info.faq') },
  { to: '/info/tos', label: () => t('pages.info.tos') },
  { to: '/info/hiring', label: () => t('pages.info.hiring') },
  { to: '/referral', label: () => t('pages.info.referral') },
] as const;

export function InfoLinks() {
  return (
    <nav className="info-links" aria-label={t('pages.info.nav')}>
      {INFO_PAGES.map((p) => (
        // Following one from the settings dialog closes the dialog.
        <Link key={p.to} to={p.to} onClick={() => (settingsOpen.value = false)}>{p.label()}</Link>
      ))}
    </nav>
  );
}
