import { BM } from '@hublink/contract';
import { Button, Result } from 'antd';
import { useRouteError } from 'react-router';

/** Shown when a page fails to load or render (for example, after a new version was deployed). */
export default function RouteError() {
  const error = useRouteError();
  console.error(error);
  return (
    <Result
      status="error"
      title={BM.pageLoadFailed}
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          {BM.reload}
        </Button>
      }
    />
  );
}
