/**
 * Entry: loads project info (spinner overlay until then), then renders the hash-routed app and
 * keeps checking that the signed-in user still exists.
 */
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { HashRouter } from 'react-router-dom';
import { RawIntlProvider } from 'react-intl';
import { I18nProvider } from 'react-aria-components';
import { intl, locale, localeTag, t } from './i18n';
import { useSignals } from './stores/signals';
import { AppRoutes } from './app/routes';
import { followSessionOfOtherTabs, loadSession, startSessionPolling } from './app/session-actions';
import { SpinnerOverlay } from './components/overlays';
import './stores/settings';

function App() {
  useSignals();
  const [ready, setReady] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    loadSession()
      .then(() => setReady(true))
      .catch((e) => setError((e as Error).message));
    const stopPolling = startSessionPolling();
    const stopFollowing = followSessionOfOtherTabs();
    return () => (stopPolling(), stopFollowing());
  }, []);
  if (error) {
    return (
      <div className="fatal" role="alert">
        <p>{t('common.app.couldNotStart', { error })}</p>
        <button className="btn btn-primary" onClick={() => window.location.reload()}>
          {t('common.app.tryAgain')}
        </button>
      </div>
    );
  }
  if (!ready) return <SpinnerOverlay />;
  // Keyed on the language: a switch renders every screen again in the new one (state lives in stores).
  return (
    <RawIntlProvider value={intl()} key={locale.value}>
      {/* react-aria's own words (date fields, list announcements) and formats follow the same language. */}
      <I18nProvider locale={localeTag()}>
        <HashRouter>
          <AppRoutes />
        </HashRouter>
      </I18nProvider>
    </RawIntlProvider>
  );
}

createRoot(document.getElementById('root')!).render(
  <>
    <App />
  </>,
);
