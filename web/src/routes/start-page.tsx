/**
 * /start: where the app goes after an environment change when the server has no admin yet: the
 * sign-up that makes the Super Admin when nobody has signed up, else the index.
 */
import { useEffect, useState } from 'react';
import { Navigate } from 'react-router-dom';
import { http } from '../api/http';
import { startTarget } from '../app/route-targets';
import { projectInfo, type ProjectInfo } from '../stores/session';
import { t } from '../i18n';

export function StartPage() {
  // The server is asked again: the environment change may have changed who has signed up.
  const [info, setInfo] = useState<ProjectInfo | null | undefined>(undefined);
  useEffect(() => {
    http<ProjectInfo>('/auth/type').then(
      (fresh) => ((projectInfo.value = { ...projectInfo.value, ...fresh }), setInfo(fresh)),
      () => setInfo(projectInfo.value),
    );
  }, []);
  if (info === undefined) return <p className="muted page">{t('pages.start.opening')}</p>;
  return <Navigate to={startTarget(info)} replace />;
}
