import { M, ROUTER_TYPE, type RouterType } from '@hublink/contract';
import { Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { PageContainer } from '../../components/PageContainer';
import { MemberTab } from './MemberTab';

const TYPE_PARAM = 'type';

/** The tab in the URL (?type=2 for software members), so a reload or a shared link keeps it. */
const typeOf = (value: string | null): RouterType => (value === String(ROUTER_TYPE.software) ? ROUTER_TYPE.software : ROUTER_TYPE.hardware);

/** /router/lists: hardware and software members in two tabs (spec 3 §2). */
export default function RouterListPage() {
  const [params, setParams] = useSearchParams();
  const type = typeOf(params.get(TYPE_PARAM));
  return (
    <PageContainer>
      <Tabs
        activeKey={String(type)}
        onChange={(key) => setParams({ [TYPE_PARAM]: key }, { replace: true })}
        destroyOnHidden
        items={[
          { key: String(ROUTER_TYPE.hardware), label: M.memberTabHardware, children: <MemberTab type={ROUTER_TYPE.hardware} /> },
          { key: String(ROUTER_TYPE.software), label: M.memberTabSoftware, children: <MemberTab type={ROUTER_TYPE.software} /> },
        ]}
      />
    </PageContainer>
  );
}
