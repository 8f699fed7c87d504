import { CODE, fmt, saasBandwidth, saasBandwidthError, type SaasItem, saasMessages } from '@hublink/contract';
import { Form, InputNumber } from 'antd';
import { FormDialog } from '../../components/FormDialog';
import { useSaasMutation } from './api';

/** Changes a shared-edition device's bandwidth: above 0 and at most its max_bandwidth (spec 3 §5), the server's own messages. */
export function BandwidthDialog({ device, onClose }: { device: SaasItem | undefined; onClose: () => void }) {
  const save = useSaasMutation(saasBandwidth);
  const max = device?.max_bandwidth ?? 0;
  return (
    <FormDialog<{ bandwidth: number | null }>
      title={saasMessages.saasEditBandwidth}
      open={device !== undefined}
      onClose={onClose}
      initialValues={{ bandwidth: device?.bandwidth ?? null }}
      onSubmit={async (v) => device !== undefined && (await save.mutateAsync({ router_name: device.router_name, bandwidth: v.bandwidth! })).code === CODE.ok}
    >
      <Form.Item
        name="bandwidth"
        label={saasMessages.saasColBandwidth}
        extra={fmt(saasMessages.saasBandwidthMaxHint, { n: max })}
        rules={[
          {
            validator: async (_, value: number | null | undefined) => {
              const refused = saasBandwidthError(value, max);
              if (refused) throw new Error(refused);
            },
          },
        ]}
      >
        <InputNumber aria-label={saasMessages.saasColBandwidth} precision={0} suffix={saasMessages.saasBandwidthUnit} style={{ width: '100%' }} autoFocus />
      </Form.Item>
    </FormDialog>
  );
}
