import { CODE, editIpPool, getIpPool, type IpPool, LIMITS, networkMessages, POOL_KEYS, POOL_LABELS, poolOverlap, poolProblem, popMessages, setNetworkFr } from '@hublink/contract';
import { Alert, Form, Input, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { useApiQuery } from '../../api/hooks';
import { FormDialog } from '../../components/FormDialog';
import { ChangePreview } from './ChangePreview';
import type { PendingFr } from './FrDialog';
import { usePopMutation } from './popApi';

/** One pool: '' or a valid segment, with the contract's messages (poolProblem). */
const poolRule: Rule = {
  validator: async (_, v: unknown) => {
    const problem = poolProblem(typeof v === 'string' ? v : '');
    if (problem) throw new Error(problem);
  },
};

/** No pool overlaps another (shown on the POP pool, as the server answers it). */
const overlapRule: Rule = ({ getFieldsValue }) => ({
  validator: async () => {
    const overlap = poolOverlap(getFieldsValue() as Partial<IpPool>);
    if (overlap) throw new Error(overlap);
  },
});

/**
 * 网段配置, the network's IP address pools (spec 2 §3): each '' or a segment like 10.8.0.0/16, none
 * overlapping. The POP pool is required while the network has a POP resource, and when the dialog
 * comes from the POP resource config's 423 (`pending`): then, once saved, that choice is sent again.
 * Opens once GET /network/ip_address_pool has answered, with what is saved.
 */
export function IpPoolDialog({
  networkNumber,
  hasFr,
  pending,
  open,
  onClose,
}: {
  networkNumber: string;
  hasFr: boolean;
  pending: PendingFr | null;
  open: boolean;
  onClose: () => void;
}) {
  const [form] = Form.useForm<IpPool>();
  const pool = useApiQuery(getIpPool, { network_number: networkNumber }, { enabled: open });
  const edit = usePopMutation(editIpPool);
  const setFr = usePopMutation(setNetworkFr);
  const saved = pool.data?.data;
  const popRequired = hasFr || pending !== null;

  /** What saving sends to edit_ip_address_pool (without network_number). */
  const bodyOf = (v: Partial<IpPool>) => ({ ...(Object.fromEntries(POOL_KEYS.map((k) => [k, (v[k] ?? '').trim()])) as IpPool), ...(pending ? { fr_id: pending.frId } : {}) });
  const submit = async (v: IpPool) => {
    const env = await edit.mutateAsync({ network_number: networkNumber, ...bodyOf(v) });
    if (env.code !== CODE.ok) return false;
    if (pending) await setFr.mutateAsync({ network_number: networkNumber, network_fr_id: pending.frId, mode: pending.mode });
    return true;
  };
  // Saving with a pending POP resource then sends that choice again (/network/fr); a preview runs one call, so it
  // previews the pools, the change this dialog makes (the resource's own preview is its dialog's).
  // Until the fields have mounted, the watch holds the closed form's {} (not the saved values): nothing is previewed then.
  const editing = Form.useWatch([], form) as Partial<IpPool> | undefined;
  const editedBody = editing === undefined || !('pop' in editing) ? null : bodyOf(editing);
  const previewed =
    editedBody === null ||
    saved === undefined ||
    POOL_KEYS.every((k) => editedBody[k] === (saved[k] ?? '')) ||
    (popRequired && editedBody.pop === '') ||
    !editIpPool.body.safeParse({ network_number: networkNumber, ...editedBody }).success
      ? null
      : editedBody;

  return (
    <FormDialog<IpPool> guardMs={LIMITS.networkLoadingClearMs} form={form} title={networkMessages.networkMenuSegment} open={open && saved !== undefined} onClose={onClose} onSubmit={submit} initialValues={saved}>
      {pending && <Alert type="info" showIcon title={popMessages.popPoolForFr} style={{ marginBottom: 16 }} />}
      <Typography.Paragraph type="secondary">{popMessages.popPoolHint}</Typography.Paragraph>
      {POOL_KEYS.map((k) => (
        <Form.Item
          key={k}
          name={k}
          label={POOL_LABELS[k]}
          rules={[...(k === 'pop' && popRequired ? [{ required: true, whitespace: true, message: popMessages.popPoolPopRequired }] : []), poolRule, ...(k === 'pop' ? [overlapRule] : [])]}
          validateTrigger={['onBlur', 'onSubmit']}
        >
          <Input placeholder="10.8.0.0/16" maxLength={18} aria-label={POOL_LABELS[k]} />
        </Form.Item>
      ))}
      <ChangePreview networkNumber={networkNumber} path={editIpPool.path} body={previewed} />
    </FormDialog>
  );
}
