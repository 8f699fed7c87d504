import { M } from '@hublink/contract';
import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { DEFAULT_PATH } from '../../app/paths';

/** /404/index: '页面不存在' and the way back to the overview. */
export default function NotFoundPage() {
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title="404"
      subTitle={M.pageNotFound}
      extra={
        <Button type="primary" onClick={() => void navigate(DEFAULT_PATH)}>
          {M.backToOverview}
        </Button>
      }
    />
  );
}
