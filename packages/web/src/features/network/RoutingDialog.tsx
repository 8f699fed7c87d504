import { CODE, editRouting, getRouting, LIMITS, type NetworkDetail, networkMessages, networkSettingsUiMessages, ROUTING_TYPE } from '@hublink/contract';
import { Form, Radio, Select } from 'antd';
import { useApiQuery } from '../../api/hooks';
import { rulesOf } from '../../api/rules';
import { FormDialog } from '../../components/FormDialog';
import { useNetworkMutation } from './api';
import { ChangePreview } from './ChangePreview';

interface Values {
  type: number;
  main_router?: string;
  secondary_router?: string;
}

type Line = 'main_router' | 'secondary_router';
const OTHER: Record<Line, Line> = { main_router: 'secondary_router', secondary_router: 'main_router' };

/**
 * 线路主备 (spec 2 §4): dual primary (1) or main-backup (2) with a main and a backup center. Picking one
 * line sets the other to another center when it is empty or the same (with two centers: the other one).
 * Opens once GET /network/routing has answered, with what is saved.
 */
export function RoutingDialog({ detail, open, onClose }: { detail: NetworkDetail; open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const routing = useApiQuery(getRouting, { network_number: detail.network_number }, { enabled: open });
  const edit = useNetworkMutation(editRouting);
  const type = Form.useWatch('type', form);
  const centers = detail.centers.map((m) => m.router_name);
  const options = centers.map((c) => ({ value: c, label: c }));
  const saved = routing.data?.data;

  const pick = (line: Line, value: string) => {
    const other = OTHER[line];
    const current = form.getFieldValue(other) as string | undefined;
    if (current && current !== value && centers.length > 2) return;
    const next = centers.find((c) => c !== value);
    if (next !== undefined) form.setFieldValue(other, next);
    void form.validateFields([other]).catch(() => undefined);
  };

  const bodyOf = (v: Values) =>
    v.type === ROUTING_TYPE.mainBackup
      ? { network_number: detail.network_number, type: v.type, main_router: v.main_router, secondary_router: v.secondary_router }
      : { network_number: detail.network_number, type: v.type };
  const editing = Form.useWatch([], form) as Values | undefined;
  const unchanged = (v: Values) => saved !== undefined && v.type === saved.type && (v.type !== ROUTING_TYPE.mainBackup || (v.main_router === saved.main_router && v.secondary_router === saved.secondary_router));
  const previewed =
    saved === undefined || !editing?.type || unchanged(editing) || (editing.type === ROUTING_TYPE.mainBackup && (!editing.main_router || !editing.secondary_router || editing.main_router === editing.secondary_router))
      ? null
      : bodyOf(editing);
  const submit = async (v: Values) => {
    const env = await edit.mutateAsync(bodyOf(v));
    return env.code === CODE.ok;
  };

  return (
    <FormDialog<Values>
      guardMs={LIMITS.networkLoadingClearMs}
      form={form}
      title={networkMessages.networkMenuRouting}
      open={open && saved !== undefined}
      onClose={onClose}
      onSubmit={submit}
      initialValues={{
        type: saved?.type === ROUTING_TYPE.mainBackup ? ROUTING_TYPE.mainBackup : ROUTING_TYPE.dual,
        main_router: saved?.main_router || undefined,
        secondary_router: saved?.secondary_router || undefined,
      }}
    >
      <Form.Item name="type" label={networkSettingsUiMessages.netSetRoutingType} rules={rulesOf(editRouting.body, 'type')}>
        <Radio.Group>
          <Radio value={ROUTING_TYPE.dual}>{networkSettingsUiMessages.netSetRoutingDual}</Radio>
          <Radio value={ROUTING_TYPE.mainBackup}>{networkSettingsUiMessages.netSetRoutingMainBackup}</Radio>
        </Radio.Group>
      </Form.Item>
      {type === ROUTING_TYPE.mainBackup && (
        <>
          <Form.Item name="main_router" label={networkSettingsUiMessages.netSetRoutingMain} rules={[{ required: true, message: networkMessages.networkRoutingMainRequired }]}>
            <Select options={options} placeholder={networkMessages.networkRoutingMainRequired} onChange={(v: string) => pick('main_router', v)} />
          </Form.Item>
          <Form.Item
            name="secondary_router"
            label={networkSettingsUiMessages.netSetRoutingBackup}
            dependencies={['main_router']}
            rules={[
              { required: true, message: networkMessages.networkRoutingBackupRequired },
              ({ getFieldValue }) => ({
                validator: async (_, v: string | undefined) => {
                  if (v && v === getFieldValue('main_router')) throw new Error(networkMessages.networkRoutingSame);
                },
              }),
            ]}
          >
            <Select options={options} placeholder={networkMessages.networkRoutingBackupRequired} onChange={(v: string) => pick('secondary_router', v)} />
          </Form.Item>
        </>
      )}
      <ChangePreview networkNumber={detail.network_number} path={editRouting.path} body={previewed} />
    </FormDialog>
  );
}
