import { type MemberState, memberStateField, overviewMessages, ROUTER_TYPE, routerMessages, type RouterType } from '@hublink/contract';
import { Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { FilterNotice } from '../../components/FilterNotice';
import { PageContainer } from '../../components/PageContainer';
import { MemberTab } from './MemberTab';

const TYPE_PARAM = 'type';
const STATE_PARAM = 'state';

/** The tab in the URL (?type=2 for software members), so a reload or a shared link keeps it. */
const typeOf = (value: string | null): RouterType => (value === String(ROUTER_TYPE.software) ? ROUTER_TYPE.software : ROUTER_TYPE.hardware);

/** What the list is limited to when the dashboard overview opened it (?state=online|behind|offline_day). */
const FILTER_TEXT: Record<MemberState, string> = {
  online: overviewMessages.memberFilterOnline,
  behind: overviewMessages.memberFilterBehind,
  offline_day: overviewMessages.memberFilterOfflineDay,
};

/** /router/lists: hardware and software members in two tabs (spec 3 §2), filtered by ?state= when an overview figure links here. */
export default function RouterListPage() {
  const [params, setParams] = useSearchParams();
  const type = typeOf(params.get(TYPE_PARAM));
  // An unknown state is ignored: the whole list shows.
  const state = memberStateField.safeParse(params.get(STATE_PARAM)).data;
  return (
    <PageContainer>
      {state && <FilterNotice text={FILTER_TEXT[state]} clearText={overviewMessages.memberFilterClear} onClear={() => setParams({ [TYPE_PARAM]: String(type) }, { replace: true })} />}
      <Tabs
        activeKey={String(type)}
        onChange={(key) => setParams({ [TYPE_PARAM]: key, ...(state ? { [STATE_PARAM]: state } : {}) }, { replace: true })}
        destroyOnHidden
        items={[
          { key: String(ROUTER_TYPE.hardware), label: routerMessages.memberTabHardware, children: <MemberTab key={state} type={ROUTER_TYPE.hardware} state={state} /> },
          { key: String(ROUTER_TYPE.software), label: routerMessages.memberTabSoftware, children: <MemberTab key={state} type={ROUTER_TYPE.software} state={state} /> },
        ]}
      />
    </PageContainer>
  );
}
