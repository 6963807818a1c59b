/**
 * The info pages (spec section 2): /info/faq, /info/tos, /info/hiring and /referral. Short and
 * true: what the README says about starting Tablo, where data lives, databases, sharing and API
 * tokens; the license as the repository states it and what a self-hosted Tablo sends anywhere;
 * how to contribute and how to recommend it. Public: no sign-in needed.
 */
import type { ReactNode } from 'react';
import { InfoLinks } from '../../features/settings/info-links';
import { t, type MessageKey } from '../../i18n';
import './info-pages.css';

/** One info page: its title, its text and the links to the others. */
function InfoPage(props: { title: string; children: ReactNode }) {
  return (
    <div className="page info-page">
      <article aria-label={props.title}>
        <h1>{props.title}</h1>
        {props.children}
      </article>
      <InfoLinks />
    </div>
  );
}

/** The questions of the FAQ, each with its answer. */
const FAQ: [MessageKey, MessageKey][] = [
  ['pages.faq.startQ', 'pages.faq.startA'],
  ['pages.faq.dataQ', 'pages.faq.dataA'],
  ['pages.faq.dbQ', 'pages.faq.dbA'],
  ['pages.faq.shareQ', 'pages.faq.shareA'],
  ['pages.faq.tokensQ', 'pages.faq.tokensA'],
  ['pages.faq.apisQ', 'pages.faq.apisA'],
];

/** /info/faq */
export function FaqPage() {
  return (
    <InfoPage title={t('pages.faq.title')}>
      <dl className="faq">
        {FAQ.map(([q, a]) => (
          <div key={q}>
            <dt>{t(q)}</dt>
            <dd>{t(a)}</dd>
          </div>
        ))}
      </dl>
    </InfoPage>
  );
}

/** /info/tos */
export function TermsPage() {
  return (
    <InfoPage title={t('pages.tos.title')}>
      <h2>{t('pages.tos.licenseHeading')}</h2>
      <p>{t('pages.tos.license')}</p>
      <h2>{t('pages.tos.sendsHeading')}</h2>
      <p>{t('pages.tos.noTelemetry')}</p>
      <p>{t('pages.tos.onlyWhenAsked')}</p>
      <ul>
        <li>{t('pages.tos.sendDatabases')}</li>
        <li>{t('pages.tos.sendSignIn')}</li>
        <li>{t('pages.tos.sendUpdates')}</li>
        <li>{t('pages.tos.sendHooks')}</li>
        <li>{t('pages.tos.sendClients')}</li>
      </ul>
      <h2>{t('pages.tos.dataHeading')}</h2>
      <p>{t('pages.tos.data')}</p>
    </InfoPage>
  );
}

/** /info/hiring */
export function HiringPage() {
  return (
    <InfoPage title={t('pages.hiring.title')}>
      <p>{t('pages.hiring.body')}</p>
      <p>{t('pages.hiring.loop')}</p>
      <p>{t('pages.hiring.habits')}</p>
    </InfoPage>
  );
}

/** /referral */
export function ReferralPage() {
  return (
    <InfoPage title={t('pages.referral.title')}>
      <p>{t('pages.referral.body')}</p>
      <p>{t('pages.referral.noProgramme')}</p>
      <p>{t('pages.referral.invite')}</p>
    </InfoPage>
  );
}
