import { CODE, frConfig, LIMITS, LINE_MODE, type NetworkDetail, networkMessages, popMessages, setNetworkFr } from '@hublink/contract';
import { Empty, Form, Radio, Select } from 'antd';
import { useApiQuery } from '../../api/hooks';
import { toast } from '../../api/notify';
import { rulesOf } from '../../api/rules';
import { FormDialog } from '../../components/FormDialog';
import { ChangePreview } from './ChangePreview';
import { modeLabel } from './labels';
import { usePopMutation } from './popApi';

interface Values {
  network_fr_id: number;
  mode: number;
}

/** What the POP resource config asked for when the server wanted a POP pool first (423). */
export interface PendingFr {
  frId: number;
  mode: number;
}

const MODES = [LINE_MODE.default, LINE_MODE.centerFirst, LINE_MODE.popFirst];

/**
 * POP资源配置 (spec 2 §3, §4): the network's POP resource and its line mode. Code 423 (no POP pool yet)
 * shows the server's msg as a warning and hands the choice to onNeedPool, which opens the pool dialog.
 */
export function FrDialog({ detail, open, onClose, onNeedPool }: { detail: NetworkDetail; open: boolean; onClose: () => void; onNeedPool: (p: PendingFr) => void }) {
  const [form] = Form.useForm<Values>();
  const choices = useApiQuery(frConfig, undefined, { enabled: open });
  const set = usePopMutation(setNetworkFr);
  const options = (choices.data?.data ?? []).map((c) => ({ value: c.network_fr_id, label: c.shortname }));
  const frId = Form.useWatch('network_fr_id', form);
  const mode = Form.useWatch('mode', form);
  const editedBody = { network_fr_id: frId, mode };
  const previewed =
    (frId === detail.network_fr?.network_fr_id && mode === detail.mode) || !setNetworkFr.body.safeParse({ network_number: detail.network_number, ...editedBody }).success ? null : editedBody;

  const submit = async (v: Values) => {
    const env = await set.mutateAsync({ network_number: detail.network_number, network_fr_id: v.network_fr_id, mode: v.mode });
    if (env.code === CODE.furtherAction) {
      toast.warning(env.msg);
      onNeedPool({ frId: v.network_fr_id, mode: v.mode });
      return true;
    }
    return env.code === CODE.ok;
  };

  return (
    <FormDialog<Values>
      guardMs={LIMITS.networkLoadingClearMs}
      form={form}
      title={networkMessages.networkMenuFr}
      open={open}
      onClose={onClose}
      onSubmit={submit}
      initialValues={{ network_fr_id: detail.network_fr?.network_fr_id, mode: MODES.includes(detail.mode as 1) ? detail.mode : LINE_MODE.default }}
    >
      <Form.Item name="network_fr_id" label={popMessages.popFr} rules={[{ required: true, message: popMessages.popFrRequired }]}>
        <Select
          options={options}
          loading={choices.isLoading}
          placeholder={popMessages.popFrRequired}
          aria-label={popMessages.popFr}
          notFoundContent={<Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={popMessages.popFrNone} />}
        />
      </Form.Item>
      <Form.Item name="mode" label={popMessages.popMode} rules={rulesOf(setNetworkFr.body, 'mode')}>
        <Radio.Group>
          {MODES.map((m) => (
            <Radio key={m} value={m}>
              {modeLabel(m)}
            </Radio>
          ))}
        </Radio.Group>
      </Form.Item>
      <ChangePreview networkNumber={detail.network_number} path={setNetworkFr.path} body={previewed} />
    </FormDialog>
  );
}
