import { BACKUP_AREA_FROM, BM, CODE, type FrArea, LIMITS, type NetworkMember, popMessages, setMemberOv } from '@hublink/contract';
import { Form, Select } from 'antd';
import { toast } from '../../api/notify';
import { FormDialog } from '../../components/FormDialog';
import { ChangePreview } from './ChangePreview';
import { usePopMutation } from './popApi';

interface Values {
  main?: number;
  backup?: number;
}

/**
 * POP区域 of one member (spec 2 §4, §5): a main area and, when the resource has more than two areas and
 * a main is chosen, a backup that differs (主备区域不可选择相同的区域！). An unchanged choice is reported
 * saved without a call.
 */
export function MemberOvDialog({ networkNumber, member, areas, onClose }: { networkNumber: string; member: NetworkMember | null; areas: FrArea[]; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const set = usePopMutation(setMemberOv);
  const main = Form.useWatch('main', form);
  const ids = new Set(areas.map((a) => a.id));
  const options = areas.map((a) => ({ value: a.id, label: a.name }));
  const backupOffered = areas.length >= BACKUP_AREA_FROM && main !== undefined;
  const backupNow = Form.useWatch('backup', form);
  const editedBackup = backupOffered ? (backupNow ?? 0) : 0;
  const unchanged = main === member?.ov_id.main && editedBackup === member?.ov_id.backup;
  const editedBody = member === null || main === undefined || unchanged ? null : { router_name: member.router_name, ov_id_main: main, ov_id_backup: editedBackup };
  const previewed = editedBody !== null && setMemberOv.body.safeParse({ network_number: networkNumber, ...editedBody }).success ? editedBody : null;

  const submit = async (v: Values) => {
    if (!member || v.main === undefined) return false;
    const backup = backupOffered ? (v.backup ?? 0) : 0;
    if (v.main === member.ov_id.main && backup === member.ov_id.backup) {
      toast.success(BM.saved);
      return true;
    }
    const env = await set.mutateAsync({ network_number: networkNumber, router_name: member.router_name, ov_id_main: v.main, ov_id_backup: backup });
    return env.code === CODE.ok;
  };

  return (
    <FormDialog<Values>
      guardMs={LIMITS.networkLoadingClearMs}
      form={form}
      title={member ? `${popMessages.popOvTitle} - ${member.router_name}` : popMessages.popOvTitle}
      open={member !== null}
      onClose={onClose}
      onSubmit={submit}
      initialValues={{
        main: member && ids.has(member.ov_id.main) ? member.ov_id.main : undefined,
        backup: member && ids.has(member.ov_id.backup) ? member.ov_id.backup : undefined,
      }}
    >
      <Form.Item name="main" label={popMessages.popOvMain} rules={[{ required: true, message: popMessages.popAreaMainRequired }]}>
        <Select options={options} placeholder={popMessages.popAreaMainRequired} aria-label={popMessages.popOvMain} />
      </Form.Item>
      {backupOffered && (
        <Form.Item
          name="backup"
          label={popMessages.popOvBackup}
          dependencies={['main']}
          rules={[
            ({ getFieldValue }) => ({
              validator: async (_, v: number | undefined) => {
                if (v !== undefined && v === getFieldValue('main')) throw new Error(popMessages.popAreaSame);
              },
            }),
          ]}
        >
          <Select options={options} allowClear placeholder={popMessages.popOvBackupPick} aria-label={popMessages.popOvBackup} />
        </Form.Item>
      )}
      <ChangePreview networkNumber={networkNumber} path={setMemberOv.path} body={previewed} />
    </FormDialog>
  );
}
