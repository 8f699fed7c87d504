import { diagnosisMessages } from '@hublink/contract';
import { Modal } from 'antd';
import { DiagnosisView, type SessionWords } from './DiagnosisView';

/** The 诊断 dialog of a member (member list, router detail). */
export function DiagnosisDialog({ routerName, session, onClose }: { routerName: string | undefined; session?: SessionWords; onClose: () => void }) {
  return (
    <Modal title={`${diagnosisMessages.diagnosisTitle} ${routerName ?? ''}`} open={routerName !== undefined} onCancel={onClose} footer={null} width={860} destroyOnHidden>
      {routerName !== undefined && <DiagnosisView routerName={routerName} session={session} />}
    </Modal>
  );
}
