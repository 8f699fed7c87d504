import { ToolOutlined } from '@ant-design/icons';
import { BM } from '@hublink/contract';
import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { DEFAULT_PATH } from '../session/paths';
import { PageContainer } from './PageContainer';

/** Placeholder for a route whose page is not built yet: the page's title and '该功能即将上线'. */
export default function ComingSoon({ title }: { title: string }) {
  const navigate = useNavigate();
  return (
    <PageContainer title={title}>
      <Result
        icon={<ToolOutlined />}
        title={title}
        subTitle={BM.comingSoon}
        extra={
          <Button type="primary" onClick={() => void navigate(DEFAULT_PATH)}>
            {BM.backToOverview}
          </Button>
        }
      />
    </PageContainer>
  );
}
