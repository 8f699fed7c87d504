import { BM, fmt, LIMITS } from '@hublink/contract';
import { Button, Result } from 'antd';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';

const LOGIN_PATH = '/login';
const SECOND_MS = 1000;

/** The success screen after registration or recovery: it goes to login by itself after 2 s. */
export function ToLoginResult({ title }: { title: string }) {
  const navigate = useNavigate();
  useEffect(() => {
    const t = setTimeout(() => navigate(LOGIN_PATH), LIMITS.registerRedirectMs);
    return () => clearTimeout(t);
  }, [navigate]);
  return (
    <Result
      status="success"
      title={title}
      subTitle={fmt(BM.redirectingToLogin, { n: LIMITS.registerRedirectMs / SECOND_MS })}
      extra={
        <Button type="primary" onClick={() => navigate(LOGIN_PATH)}>
          {BM.loginNow}
        </Button>
      }
    />
  );
}
