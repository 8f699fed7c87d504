import { logsMessages, type SoftwareLoginItem, softwareLoginLog } from '@hublink/contract';
import { PageContainer } from '../../components/PageContainer';
import { SOFTWARE_LOGIN_COLUMNS } from './columns';
import { LogTable } from './LogTable';

/** /logs/software_login: software members' sign-ins (main accounts only, spec 3 §2). */
export default function SoftwareLoginPage() {
  return (
    <PageContainer>
      <LogTable<SoftwareLoginItem> endpoint={softwareLoginLog} columns={SOFTWARE_LOGIN_COLUMNS} exportType="software_login" searchPlaceholder={logsMessages.logSearchSoftwareLogin} />
    </PageContainer>
  );
}
