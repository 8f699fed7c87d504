import { connectLog, M, type ConnectLogItem } from '@hublink/contract';
import { PageContainer } from '../../components/PageContainer';
import { CONNECT_COLUMNS } from './columns';
import { LogTable } from './LogTable';

/** /logs/connect: the devices' connections, searched by member name (spec 3 §2, §3). */
export default function ConnectLogPage() {
  return (
    <PageContainer>
      <LogTable<ConnectLogItem> endpoint={connectLog} columns={CONNECT_COLUMNS} exportType="connect" searchPlaceholder={M.logSearchMember} />
    </PageContainer>
  );
}
