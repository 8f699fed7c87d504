import { CODE, getPointLink, LIMITS, type NetworkDetail, networkSegmentsMessages, setPointLink } from '@hublink/contract';
import { Empty, Form, Select, Typography } from 'antd';
import { useApiQuery } from '../../api/hooks';
import { FormDialog } from '../../components/FormDialog';
import { useNetworkMutation } from './api';
import { ChangePreview } from './ChangePreview';

type Values = Record<string, string[] | undefined>;

/**
 * 点位连接设置 (ours; spec 2 lists the dialog without its content): for each point, the centers it links
 * to, every center by default; at least one each. An unchanged choice closes without a call.
 */
export function PointLinkDialog({ detail, open, onClose }: { detail: NetworkDetail; open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const saved = useApiQuery(getPointLink, { network_number: detail.network_number }, { enabled: open });
  const set = useNetworkMutation(setPointLink);
  const config = saved.data?.data?.link_config;
  const centers = detail.centers.map((m) => ({ value: m.router_name, label: m.router_name }));
  const points = Object.keys(config ?? {});
  // Field names are indexes: a member name may hold characters a form path would split on.
  const initial: Values = Object.fromEntries(points.map((p, i) => [`p${i}`, config![p]]));

  /** The choice to send, or null when it is the saved one. */
  const linksOf = (v: Values) => {
    const link_config = Object.fromEntries(points.map((p, i) => [p, v[`p${i}`] ?? []]));
    return JSON.stringify(link_config) === JSON.stringify(config) ? null : link_config;
  };
  const editing = Form.useWatch([], form) as Values | undefined;
  const previewed = config === undefined || !editing || points.some((_, i) => (editing[`p${i}`] ?? []).length === 0) ? null : linksOf(editing);
  const submit = async (v: Values) => {
    const link_config = linksOf(v);
    if (link_config === null) return true;
    const env = await set.mutateAsync({ network_number: detail.network_number, link_config });
    return env.code === CODE.ok;
  };

  return (
    <FormDialog<Values> guardMs={LIMITS.networkLoadingClearMs} form={form} title={networkSegmentsMessages.segUiPointLinkTitle} open={open && config !== undefined} onClose={onClose} onSubmit={submit} initialValues={initial}>
      <Typography.Paragraph type="secondary">{networkSegmentsMessages.segUiPointLinkHint}</Typography.Paragraph>
      {points.length === 0 || centers.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={networkSegmentsMessages.segUiPointLinkNone} />
      ) : (
        points.map((p, i) => (
          <Form.Item key={p} name={`p${i}`} label={p} rules={[{ required: true, type: 'array', min: 1, message: networkSegmentsMessages.segPointLinkCentersRequired }]}>
            <Select mode="multiple" options={centers} aria-label={`${p} ${networkSegmentsMessages.segUiPointLinkCenters}`} placeholder={networkSegmentsMessages.segUiPointLinkCenters} />
          </Form.Item>
        ))
      )}
      <ChangePreview networkNumber={detail.network_number} path={setPointLink.path} body={previewed === null ? null : { link_config: previewed }} />
    </FormDialog>
  );
}
