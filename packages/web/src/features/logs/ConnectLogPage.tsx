import { connectLog, type ConnectLogItem, type ConnectSessionItem, logsMessages } from '@hublink/contract';
import { Tabs } from 'antd';
import { PageContainer } from '../../components/PageContainer';
import { CONNECT_COLUMNS, CONNECT_SESSION_COLUMNS } from './columns';
import { LogTable } from './LogTable';

/**
 * /logs/connect: the devices' connections, searched by member name (spec 3 §2, §3), and the variant
 * with p2p and POP tabs: each session with the connection that carried it. Each tab has its own
 * search, days, pager and export.
 */
export default function ConnectLogPage() {
  return (
    <PageContainer>
      <Tabs
        destroyOnHidden
        items={[
          {
            key: 'all',
            label: logsMessages.logConnectAll,
            children: <LogTable<ConnectLogItem> endpoint={connectLog} columns={CONNECT_COLUMNS} exportType="connect" searchPlaceholder={logsMessages.logSearchMember} />,
          },
          {
            key: 'p2p',
            label: logsMessages.logModeP2p,
            children: (
              <LogTable<ConnectSessionItem> endpoint={connectLog} extra={{ mode: 'p2p' }} columns={CONNECT_SESSION_COLUMNS.p2p} exportType="connect_p2p" searchPlaceholder={logsMessages.logSearchMember} />
            ),
          },
          {
            key: 'pop',
            label: logsMessages.logModePop,
            children: (
              <LogTable<ConnectSessionItem> endpoint={connectLog} extra={{ mode: 'pop' }} columns={CONNECT_SESSION_COLUMNS.pop} exportType="connect_pop" searchPlaceholder={logsMessages.logSearchMember} />
            ),
          },
        ]}
      />
    </PageContainer>
  );
}
