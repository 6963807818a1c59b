/** Error pages 400 / 403 / 404; the 404 also answers every unmatched route. */
import { Link } from 'react-router-dom';
import { t } from '../../i18n';

/** The title and sentence of one status, in the current language. */
const textOf = (status: 400 | 403 | 404): { title: string; body: string } =>
  status === 400
    ? { title: t('common.error.badRequest'), body: t('common.error.occurred') }
    : status === 403
      ? { title: t('common.error.forbidden'), body: t('common.error.notAllowed') }
      : { title: t('common.error.notFound'), body: t('common.error.notFoundBody') };

/** The error layout for one status, with its link home ('Back to the home page' on 404). */
export function ErrorPage(props: { status: 400 | 403 | 404 }) {
  const text = textOf(props.status);
  return (
    <div className="error-page">
      <div className="error-code">{props.status}</div>
      <h1>{text.body}</h1>
      <p className="muted">{text.title}</p>
      <Link to="/" className="btn btn-primary">
        {props.status === 404 ? t('common.error.backHome') : t('common.error.homePage')}
      </Link>
    </div>
  );
}

/** A project the signed-in user is not (or no longer) a member of: says so, with the way to their projects. */
export function NotMemberPage() {
  return (
    <div className="error-page" data-testid="not-member">
      <div className="error-code">403</div>
      <h1>{t('common.project.notMember')}</h1>
      <p className="muted">{t('common.project.notMemberBody')}</p>
      <Link to="/projects" className="btn btn-primary">
        {t('common.project.toList')}
      </Link>
    </div>
  );
}
