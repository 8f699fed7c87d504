import { logsMessages, onlineLog, type OnlineLogItem } from '@hublink/contract';
import { Tabs } from 'antd';
import { PageContainer } from '../../components/PageContainer';
import { ONLINE_COLUMNS } from './columns';
import { LogTable } from './LogTable';

/** /logs/online: p2p and POP sessions, one tab each with its own search, days and pager (spec 3 §2, §3). */
export default function OnlineLogPage() {
  return (
    <PageContainer>
      <Tabs
        destroyOnHidden
        items={[
          {
            key: 'p2p',
            label: logsMessages.logModeP2p,
            children: <LogTable<OnlineLogItem> endpoint={onlineLog} extra={{ mode: 'p2p' }} columns={ONLINE_COLUMNS.p2p} exportType="online" searchPlaceholder={logsMessages.logSearchOnline} />,
          },
          {
            key: 'pop',
            label: logsMessages.logModePop,
            children: <LogTable<OnlineLogItem> endpoint={onlineLog} extra={{ mode: 'pop' }} columns={ONLINE_COLUMNS.pop} exportType="pop_online" searchPlaceholder={logsMessages.logSearchOnline} />,
          },
        ]}
      />
    </PageContainer>
  );
}
