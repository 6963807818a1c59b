/**
 * Catches an error thrown while a screen renders (for example an answer of an unexpected shape)
 * and shows the error layout of the spec, 'An error occurred' with the message and a Home page
 * link, instead of a blank page. The top bar stays usable; moving to another route clears it.
 */
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { t } from '../i18n';

interface BoundaryProps {
  children: ReactNode;
  /** A change of this value (the route) forgets the error. */
  resetKey: string;
}

interface BoundaryState {
  error: Error | null;
  key: string;
}

class Boundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: null, key: this.props.resetKey };

  static getDerivedStateFromError(error: Error): Partial<BoundaryState> {
    return { error };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.resetKey === state.key ? null : { error: null, key: props.resetKey };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('screen failed to render', error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return (
      <div className="error-page" role="alert">
        <h1>{t('common.error.occurred')}</h1>
        <p className="muted">{this.state.error.message}</p>
        <Link to="/" className="btn btn-primary">
          {t('common.error.homePage')}
        </Link>
      </div>
    );
  }
}

/** The screen below the top bar, guarded against render errors; reset on every route change. */
export function ScreenErrorBoundary(props: { children: ReactNode }) {
  const location = useLocation();
  return <Boundary resetKey={location.pathname + location.search}>{props.children}</Boundary>;
}
