import { BM } from '@hublink/contract';
import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { DEFAULT_PATH } from '../../session/paths';
import { PageHeading } from '../../components/PageHeading';

/** An error page of the console: its status, what went wrong, and the way back to the overview. */
export function ErrorResult({ status, text }: { status: '403' | '404'; text: string }) {
  const navigate = useNavigate();
  return (
    <Result
      status={status}
      title={<PageHeading>{status}</PageHeading>}
      subTitle={text}
      extra={
        <Button type="primary" onClick={() => void navigate(DEFAULT_PATH)}>
          {BM.backToOverview}
        </Button>
      }
    />
  );
}
