import {
  ALERT_KINDS,
  type BodyOf,
  CODE,
  createWebhook,
  DEFAULT_WEBHOOK_TYPE,
  editWebhook,
  LIMITS,
  monitorMessages as T,
  type WebhookItem,
  webhookMentionsAllowed,
  type WebhookType,
  webhookUsesSecret,
} from '@hublink/contract';
import { Checkbox, Form, Input, Select, Switch, Typography } from 'antd';
import { rulesOf } from '../../api/rules';
import { FormDialog } from '../../components/FormDialog';
import { useMonitorMutation } from './api';
import { KIND_OPTIONS } from './labels';
import { WebhookTargetFields } from './WebhookTargetFields';

type Values = BodyOf<typeof createWebhook>;
/** The form holds "mention everyone" as a switch. */
type FormValues = Omit<Values, 'at_all'> & { at_all: boolean };

/** What ends one mobile or user id while typing: a comma (either width) or a space. */
// eslint-disable-next-line hublink-web/no-chinese-text -- a separator character, not a text
const SEPARATORS = [',', '，', ' '];


/** Messages of the server that belong under one field of the form (it says them there, not only in a toast). */
const FIELD_OF: Record<string, keyof FormValues> = {
  [T.webhookUrlPrivate]: 'url',
  [T.webhookUrlInvalid]: 'url',
  [T.webhookNameTaken]: 'name',
  [T.webhookFeishuNoMobiles]: 'at_mobiles',
  [T.webhookOtherNoMentions]: 'at_user_ids',
};

export interface HookDialogProps {
  open: boolean;
  /** The webhook to edit; none to add one. */
  record?: WebhookItem;
  onClose: () => void;
}

const initialOf = (r?: WebhookItem): Partial<FormValues> =>
  r
    ? { name: r.name, type: r.type, url: r.url, secret: r.secret, kinds: r.kinds, at_mobiles: r.at_mobiles, at_user_ids: r.at_user_ids, at_all: r.at_all === 1 }
    : { type: DEFAULT_WEBHOOK_TYPE, kinds: [...ALERT_KINDS], at_mobiles: [], at_user_ids: [], at_all: false, secret: '' };

/**
 * Adds or edits one webhook (issue 33): name, provider, URL, signing secret (none for WeCom; a stored
 * one shows masked and is kept unless replaced), the alert kinds it gets and whom it mentions, as far as
 * its provider can (DingTalk mobiles and user ids, Feishu user ids, WeCom mobiles and user ids; all but
 * "other" can mention everyone).
 */
export function HookDialog({ open, record, onClose }: HookDialogProps) {
  const [form] = Form.useForm<FormValues>();
  const type = (Form.useWatch('type', form) as WebhookType | undefined) ?? record?.type ?? DEFAULT_WEBHOOK_TYPE;
  const allowed = webhookMentionsAllowed(type);
  const create = useMonitorMutation(createWebhook);
  const edit = useMonitorMutation(editWebhook);

  const submit = async (v: FormValues) => {
    const body: Values = {
      name: v.name,
      type: v.type,
      url: v.url,
      secret: webhookUsesSecret(v.type) ? (v.secret ?? '') : '',
      kinds: v.kinds,
      // What the provider cannot carry is not sent (the server would refuse it).
      at_mobiles: allowed.mobiles ? (v.at_mobiles ?? []) : [],
      at_user_ids: allowed.userIds ? (v.at_user_ids ?? []) : [],
      at_all: allowed.all && v.at_all ? 1 : 0,
    };
    const env = record ? await edit.mutateAsync({ uuid: record.uuid, ...body }) : await create.mutateAsync(body);
    const field = FIELD_OF[env.msg];
    if (env.code !== CODE.ok && field) form.setFields([{ name: field, errors: [env.msg] }]);
    return env.code === CODE.ok;
  };

  return (
    <FormDialog<FormValues>
      key={record?.uuid ?? 'new'}
      form={form}
      title={record ? T.webhookEdit : T.webhookCreate}
      open={open}
      onClose={onClose}
      onSubmit={submit}
      guardMs={LIMITS.submitGuardLongMs}
      width={600}
      initialValues={initialOf(record)}
    >
      <Form.Item name="name" label={T.webhookName} rules={rulesOf(createWebhook.body, 'name')}>
        <Input maxLength={LIMITS.webhookNameMax} placeholder={T.webhookNamePlaceholder} />
      </Form.Item>
      <WebhookTargetFields schema={createWebhook.body} type={type} />
      <Form.Item name="kinds" label={T.webhookKinds} rules={rulesOf(createWebhook.body, 'kinds')}>
        <Checkbox.Group options={KIND_OPTIONS} aria-label={T.webhookKinds} />
      </Form.Item>
      {allowed.mobiles && (
        <Form.Item name="at_mobiles" label={T.webhookAtMobiles} extra={T.webhookAtMobilesHint} rules={rulesOf(createWebhook.body, 'at_mobiles')}>
          <Select mode="tags" open={false} suffixIcon={null} tokenSeparators={SEPARATORS} placeholder={T.webhookAtMobilesPlaceholder} aria-label={T.webhookAtMobiles} />
        </Form.Item>
      )}
      {allowed.userIds && (
        <Form.Item name="at_user_ids" label={T.webhookAtUserIds} extra={T.webhookAtUserIdsHint} rules={rulesOf(createWebhook.body, 'at_user_ids')}>
          <Select mode="tags" open={false} suffixIcon={null} tokenSeparators={SEPARATORS} placeholder={T.webhookAtUserIdsPlaceholder} aria-label={T.webhookAtUserIds} />
        </Form.Item>
      )}
      {allowed.all && (
        <Form.Item name="at_all" label={T.webhookAtAll} valuePropName="checked">
          <Switch aria-label={T.webhookAtAll} />
        </Form.Item>
      )}
      {type === 'other' && <Typography.Paragraph type="secondary">{T.webhookOtherHint}</Typography.Paragraph>}
    </FormDialog>
  );
}
