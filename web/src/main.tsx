/**
 * Entry: loads project info (spinner overlay until then), then renders the hash-routed app and
 * keeps checking that the signed-in user still exists.
 */
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { HashRouter } from 'react-router-dom';
import { AppRoutes } from './app/routes';
import { loadSession, startSessionPolling } from './app/session-actions';
import { SpinnerOverlay } from './components/overlays';
import './stores/settings';

function App() {
  const [ready, setReady] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    loadSession()
      .then(() => setReady(true))
      .catch((e) => setError((e as Error).message));
    return startSessionPolling();
  }, []);
  if (error) {
    return (
      <div className="fatal" role="alert">
        <p>Tablo could not start: {error}</p>
        <button className="btn btn-primary" onClick={() => window.location.reload()}>
          Try again
        </button>
      </div>
    );
  }
  if (!ready) return <SpinnerOverlay />;
  return (
    <HashRouter>
      <AppRoutes />
    </HashRouter>
  );
}

createRoot(document.getElementById('root')!).render(
  <>
    <App />
  </>,
);
