import { networkTicketMessages, selectNetworks } from '@hublink/contract';
import { Form, Modal, Select } from 'antd';
import { useNavigate } from 'react-router';
import { useApiQuery } from '../../api/hooks';
import { ticketCreatePath } from './labels';

/** Picks the network an access-POP ticket is for, then opens the wizard for it. */
export function ApplyDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<{ network_number: string }>();
  const navigate = useNavigate();
  const networks = useApiQuery(selectNetworks, undefined, { enabled: open });
  return (
    <Modal
      title={networkTicketMessages.ticketApplyTitle}
      open={open}
      onCancel={onClose}
      onOk={() => form.submit()}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false} onFinish={(v) => void navigate(ticketCreatePath(v.network_number))}>
        <Form.Item name="network_number" label={networkTicketMessages.ticketApplyNetwork} rules={[{ required: true, message: networkTicketMessages.ticketApplyNetworkRequired }]}>
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={networkTicketMessages.ticketApplyNetworkRequired}
            loading={networks.isFetching}
            options={(networks.data?.data ?? []).map((n) => ({ value: n.network_number, label: `${n.network_name} (${n.network_number})` }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
