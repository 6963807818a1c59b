/** Error pages 400 / 403 / 404; the 404 also answers every unmatched route. */
import { Link } from 'react-router-dom';

const TEXT: Record<number, { title: string; body: string }> = {
  400: { title: '400 Bad Request', body: 'An error occurred' },
  403: { title: '403 Forbidden', body: 'You are not allowed to see this page' },
  404: { title: '404 Not Found', body: 'This page could not be found' },
};

/** The error layout for one status, with its link home ('Back to the home page' on 404). */
export function ErrorPage(props: { status: 400 | 403 | 404 }) {
  const t = TEXT[props.status]!;
  return (
    <div className="error-page">
      <div className="error-code">{props.status}</div>
      <h1>{t.body}</h1>
      <p className="muted">{t.title}</p>
      <Link to="/" className="btn btn-primary">
        {props.status === 404 ? 'Back to the home page' : 'Home page'}
      </Link>
    </div>
  );
}
