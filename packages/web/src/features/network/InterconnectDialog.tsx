import { CODE, editCenterLinkGateway, enableCenterLink, isIpv4, isNetworkAddress, LIMITS, type NetworkDetail, networkSegmentsMessages, segmentFields } from '@hublink/contract';
import { App, Button, Descriptions, Flex, Form, Input, Select, Tag } from 'antd';
import type { Rule } from 'antd/es/form';
import { FormDialog } from '../../components/FormDialog';
import { useNetworkMutation } from './api';
import { ChangePreview } from './ChangePreview';
import { SEGMENT_MASK_OPTIONS, text, zodRule } from './segmentForm';

interface Values {
  gateway?: string;
  mask?: number;
}

const formatRule: Rule = ({ getFieldValue }) => ({
  validator: async (_, v: unknown) => {
    const mask = getFieldValue('mask') as number | undefined;
    if (mask !== undefined && segmentFields.gateway.safeParse(text(v)).success && !isNetworkAddress(text(v), mask)) throw new Error(networkSegmentsMessages.segGatewayFormat);
  },
});

/**
 * 中心互联 (spec 2 §4): turning center interconnect on or off, each after a confirmation, and its
 * segment (a network address with a mask of 16 to 24). An unchanged segment closes without a call.
 */
export function InterconnectDialog({ detail, open, onClose }: { detail: NetworkDetail; open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const { modal } = App.useApp();
  const toggle = useNetworkMutation(enableCenterLink);
  const save = useNetworkMutation(editCenterLinkGateway);
  const { enable, segment } = detail.network_interconnect;
  const on = enable === 1;

  const confirmToggle = () =>
    modal.confirm({
      title: on ? networkSegmentsMessages.segUiInterconnectDisable : networkSegmentsMessages.segUiInterconnectEnable,
      content: (
        <>
          {on ? networkSegmentsMessages.segUiInterconnectDisableConfirm : networkSegmentsMessages.segUiInterconnectEnableConfirm}
          <ChangePreview networkNumber={detail.network_number} path={enableCenterLink.path} body={{ enable: on ? 0 : 1 }} />
        </>
      ),
      onOk: () => toggle.mutateAsync({ network_number: detail.network_number, enable: on ? 0 : 1 }),
    });

  const gatewayNow = text(Form.useWatch('gateway', form));
  const maskNow = Form.useWatch('mask', form);
  const previewed =
    !isIpv4(gatewayNow) || maskNow === undefined || (segment !== null && gatewayNow === segment.gateway && maskNow === segment.mask) ? null : { gateway: gatewayNow, mask: maskNow };
  const submit = async (v: Values) => {
    const gateway = text(v.gateway);
    if (segment && gateway === segment.gateway && v.mask === segment.mask) return true;
    const env = await save.mutateAsync({ network_number: detail.network_number, gateway, mask: v.mask ?? 0 });
    return env.code === CODE.ok;
  };

  return (
    <FormDialog<Values>
      guardMs={LIMITS.networkLoadingClearMs}
      form={form}
      title={networkSegmentsMessages.segUiInterconnectTitle}
      open={open}
      onClose={onClose}
      onSubmit={submit}
      okText={networkSegmentsMessages.segUiSaveSegment}
      initialValues={{ gateway: segment?.gateway ?? '', mask: segment?.mask }}
    >
      <Descriptions
        size="small"
        column={1}
        style={{ marginBottom: 16 }}
        items={[
          {
            key: 'state',
            label: networkSegmentsMessages.segUiInterconnectState,
            children: (
              <Flex gap={8} align="center" wrap>
                <Tag color={on ? 'green' : 'default'}>{on ? networkSegmentsMessages.segUiInterconnectOn : networkSegmentsMessages.segUiInterconnectOff}</Tag>
                <Button size="small" danger={on} onClick={confirmToggle} loading={toggle.isPending}>
                  {on ? networkSegmentsMessages.segUiInterconnectDisable : networkSegmentsMessages.segUiInterconnectEnable}
                </Button>
              </Flex>
            ),
          },
        ]}
      />
      <Flex gap={12} wrap role="group" aria-label={networkSegmentsMessages.segUiInterconnectSegment}>
        <Form.Item name="gateway" label={networkSegmentsMessages.segUiInterconnectSegment} rules={[zodRule(segmentFields.gateway), formatRule]} dependencies={['mask']} style={{ flex: '1 1 200px' }}>
          <Input aria-label={`${networkSegmentsMessages.segUiInterconnectSegment} ${networkSegmentsMessages.segUiGateway}`} inputMode="decimal" placeholder="10.255.0.0" />
        </Form.Item>
        <Form.Item name="mask" label={networkSegmentsMessages.segUiMask} rules={[zodRule(segmentFields.mask)]} style={{ flex: '0 0 120px' }}>
          <Select options={SEGMENT_MASK_OPTIONS} virtual={false} aria-label={`${networkSegmentsMessages.segUiInterconnectSegment} ${networkSegmentsMessages.segUiMask}`} placeholder={networkSegmentsMessages.segUiMask} />
        </Form.Item>
      </Flex>
      <ChangePreview networkNumber={detail.network_number} path={editCenterLinkGateway.path} body={previewed} />
    </FormDialog>
  );
}
