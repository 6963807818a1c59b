/**
 * /user/authentication/callback: where a provider sends the browser back (through the server's
 * path of the same name). Hands code and state to POST /auth/{provider}/genTokenByCode; the
 * provider is the part of the state before its first dot. A sign-in goes on to the projects; a
 * linked account to the accounts settings; a failure shows the server's message for 3 s on sign-in.
 */
import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { authApi } from '../../api/auth';
import { acceptToken } from '../../app/session-actions';
import { toast } from '../../stores/toasts';
import { AuthCard } from '../../components/form';
import { t } from '../../i18n';

export function OAuthCallbackPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const started = useRef(false);
  useEffect(() => {
    // Codes are used once: do not send it twice when the effect runs again.
    if (started.current) return;
    started.current = true;
    const code = params.get('code') ?? '';
    const state = params.get('state') ?? '';
    const providerError = params.get('error_description') ?? params.get('error');
    const provider = state.split('.')[0] ?? '';
    const fail = (msg: string) => {
      toast('error', msg, 3000);
      navigate('/user/authentication/signin', { replace: true });
    };
    if (providerError) return fail(t('admin.oauth.notCompleted', { error: providerError }));
    if (!code || !provider) return fail(t('admin.oauth.invalidLink'));
    authApi.genTokenByCode(provider, code, state).then(
      async (res) => {
        if (res.token) {
          await acceptToken(res.token);
          navigate('/projects', { replace: true });
        } else {
          toast('success', res.msg ?? t('admin.oauth.accountLinked'));
          navigate('/user/settings/accounts', { replace: true });
        }
      },
      (e) => fail((e as Error).message),
    );
  }, []);
  return <AuthCard title={t('admin.oauth.signingIn')} subtitle={t('admin.oauth.finishing')} />;
}
