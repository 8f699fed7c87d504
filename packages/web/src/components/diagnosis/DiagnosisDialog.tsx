import { diagnosisMessages } from '@hublink/contract';
import { Modal } from 'antd';
import { DiagnosisView } from './DiagnosisView';

/** The 诊断 dialog of a member (member list, router detail). */
export function DiagnosisDialog({ routerName, onClose }: { routerName: string | undefined; onClose: () => void }) {
  return (
    <Modal title={`${diagnosisMessages.diagnosisTitle} ${routerName ?? ''}`} open={routerName !== undefined} onCancel={onClose} footer={null} width={860} destroyOnHidden>
      {routerName !== undefined && <DiagnosisView routerName={routerName} />}
    </Modal>
  );
}
