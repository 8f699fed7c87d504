import { CODE, DEFAULT_ROUTE, fmt, LIMITS, metricOf, type NetworkMember, networkMessages, networkSettingsUiMessages, setDefaultRoute } from '@hublink/contract';
import { Form, Radio, Select } from 'antd';
import { rulesOf } from '../../api/rules';
import { FormDialog } from '../../components/FormDialog';
import { useNetworkMutation } from './api';
import { ChangePreview } from './ChangePreview';

interface Values {
  model: number;
  metric?: number;
}

const MODELS = [
  { value: DEFAULT_ROUTE.off, label: networkMessages.networkRouteOff },
  { value: DEFAULT_ROUTE.advertise, label: networkMessages.networkRouteAdvertise },
  { value: DEFAULT_ROUTE.receive, label: networkMessages.networkRouteReceive },
];

/** Priority 1 to 5 is metric 30 to 150 (spec 2 §3, §9). */
const PRIORITIES = LIMITS.defaultRouteMetrics.map((metric, i) => ({ value: metric, label: fmt(networkSettingsUiMessages.netSetRoutePriorityN, { n: i + 1 }) }));

/**
 * A member's default route (spec 2 §4): off, advertise or receive; the priority choice only for
 * advertise, where it is required. The metric is sent only to advertise.
 */
export function DefaultRouteDialog({ networkNumber, member, onClose }: { networkNumber: string; member: NetworkMember | null; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const set = useNetworkMutation(setDefaultRoute);
  const model = Form.useWatch('model', form);
  const metric = Form.useWatch('metric', form);
  const bodyOf = (name: string, v: Values) => {
    const body = { network_number: networkNumber, router_name: name, model: v.model };
    return v.model === DEFAULT_ROUTE.advertise ? { ...body, metric: v.metric } : body;
  };
  const unchanged = member !== null && model === member.default_route && (model !== DEFAULT_ROUTE.advertise || metric === metricOf(member.metric));
  const previewed = member === null || model === undefined || unchanged || (model === DEFAULT_ROUTE.advertise && metricOf(metric) === undefined) ? null : bodyOf(member.router_name, { model, metric });
  const submit = async (v: Values) => {
    if (!member) return false;
    const env = await set.mutateAsync(bodyOf(member.router_name, v));
    return env.code === CODE.ok;
  };
  return (
    <FormDialog<Values>
      guardMs={LIMITS.networkLoadingClearMs}
      key={member?.router_name ?? 'none'}
      form={form}
      title={fmt(networkSettingsUiMessages.netSetRouteTitle, { name: member?.router_name ?? '' })}
      open={member !== null}
      onClose={onClose}
      onSubmit={submit}
      initialValues={{ model: member?.default_route ?? DEFAULT_ROUTE.off, metric: member ? metricOf(member.metric) : undefined }}
    >
      <Form.Item name="model" label={networkSettingsUiMessages.netSetRouteModel} rules={rulesOf(setDefaultRoute.body, 'model')}>
        <Radio.Group options={MODELS} />
      </Form.Item>
      {model === DEFAULT_ROUTE.advertise && (
        <Form.Item
          name="metric"
          label={networkSettingsUiMessages.netSetRoutePriority}
          rules={[
            {
              validator: async (_, v: unknown) => {
                if (metricOf(v) === undefined) throw new Error(networkMessages.networkRouteMetricInvalid);
              },
            },
          ]}
        >
          <Select options={PRIORITIES} placeholder={networkMessages.networkRouteMetricInvalid} />
        </Form.Item>
      )}
      <ChangePreview networkNumber={networkNumber} path={setDefaultRoute.path} body={previewed} />
    </FormDialog>
  );
}
