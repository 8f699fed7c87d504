import { accountMessages, CODE, validateEmail } from '@hublink/contract';
import { Button, Card, Result } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { call } from '../../api/client';
import { PageHeading } from '../../components/PageHeading';

const NOT_YET = 404;

/**
 * /validate/email (spec 1 §2.8, 3 §2): posts the link's token `s` once and shows the answer, with the
 * success image for code 200 and the error image otherwise. Until an answer arrives the state is 404.
 */
export default function ValidateEmailPage() {
  const [params] = useSearchParams();
  const s = params.get('s') ?? '';
  const [answer, setAnswer] = useState<{ code: number; msg: string }>({ code: NOT_YET, msg: s ? accountMessages.validating : accountMessages.validateLinkInvalid });
  const posted = useRef<string | null>(null);

  useEffect(() => {
    if (!s || posted.current === s) return;
    posted.current = s;
    void call(validateEmail, { body: { s } }, { successToast: false, quiet: true }).then((env) => setAnswer({ code: env.code, msg: env.msg }));
  }, [s]);

  const status = answer.code === CODE.ok ? 'success' : answer.code === NOT_YET ? '404' : 'error';
  return (
    <Card variant="borderless" style={{ maxWidth: 640, margin: '48px auto' }}>
      <Result
        status={status}
        title={<PageHeading>{accountMessages.validateResultTitle}</PageHeading>}
        subTitle={answer.msg}
        extra={
          <Link to="/">
            <Button type="primary">{accountMessages.backHome}</Button>
          </Link>
        }
      />
    </Card>
  );
}
