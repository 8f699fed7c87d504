import { BM } from '@hublink/contract';
import { Spin } from 'antd';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { authorizeWithToken } from './authorize';
import { HOME_PATH, LOGIN_PATH } from '../session/paths';

/**
 * Full-page '正在获取授权...' overlay that signs in with a token from the query string, then goes to
 * the console (or back to the login page when the token is refused). The route guard shows it on
 * /login?token=…; the login page does not need to do anything for it.
 */
export function AuthorizeByToken({ token }: { token: string }) {
  const navigate = useNavigate();
  useEffect(() => {
    let active = true;
    void authorizeWithToken(token).then((ok) => {
      if (active) void navigate(ok ? HOME_PATH : LOGIN_PATH, { replace: true });
    });
    return () => {
      active = false;
    };
  }, [token, navigate]);
  return (
    <div role="status" aria-live="polite">
      <Spin fullscreen size="large" description={BM.authorizing} />
    </div>
  );
}
