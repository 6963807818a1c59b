/** The product mark of the top bar and the sign-in page: the Branding plugin's logo and title, else Tablo's. */
import { useEffect } from 'react';
import { useSignals } from '../../stores/signals';
import { branding, loadBranding } from './branding-store';
import { serverLink } from '../../api/app-url';

let loaded = false;

export function BrandMark(props: { size?: 'bar' | 'page' }) {
  useSignals();
  useEffect(() => {
    if (!loaded) {
      loaded = true;
      void loadBranding();
    }
  }, []);
  const b = branding.value;
  return (
    <span className={`brand-inner brand-${props.size ?? 'bar'}`} data-testid="brand">
      {b.logoUrl ? <img className="brand-logo" src={serverLink(b.logoUrl)} alt="" /> : <span className="brand-mark" aria-hidden>▦</span>} {b.title ?? 'Tablo' /* i18n-ignore */}
    </span>
  );
}
