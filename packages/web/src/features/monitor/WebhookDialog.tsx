import { BM, type BodyOf, CODE, DEFAULT_WEBHOOK_TYPE, LIMITS, monitorMessages, webhookConfig, webhookDelete, webhookSetting, webhookTest, type WebhookType, webhookUsesSecret } from '@hublink/contract';
import { Button, Flex, Form, Modal, Popconfirm, Typography } from 'antd';
import { useEffect } from 'react';
import { useApiMutation, useApiQuery } from '../../api/hooks';
import { useGuardedBusy } from '../../components/useGuardedBusy';
import { useMonitorMutation } from './api';
import { useMonitorRights } from './rights';
import { WebhookTargetFields } from './WebhookTargetFields';

type Values = BodyOf<typeof webhookSetting>;


export interface WebhookDialogProps {
  open: boolean;
  onClose: () => void;
}

/**
 * The webhook (spec 3 §2–§5): type (DingTalk by default), URL and a signing secret (none for WeCom; a
 * stored one shows masked and is kept unless replaced). Test and delete ask first; test, delete and
 * save each hold their loading state at most 60 s.
 */
export function WebhookDialog({ open, onClose }: WebhookDialogProps) {
  const rights = useMonitorRights();
  const current = useApiQuery(webhookConfig, undefined, { enabled: open });
  const stored = current.data?.data ?? null;
  const [form] = Form.useForm<Values>();
  const type = (Form.useWatch('type', form) as WebhookType | undefined) ?? DEFAULT_WEBHOOK_TYPE;
  const save = useMonitorMutation(webhookSetting);
  // A test changes nothing: no reload after it.
  const test = useApiMutation(webhookTest);
  const remove = useMonitorMutation(webhookDelete, { on204: 'stay' });
  const saving = useGuardedBusy(LIMITS.submitGuardLongMs);
  const testing = useGuardedBusy(LIMITS.submitGuardLongMs);
  const deleting = useGuardedBusy(LIMITS.submitGuardLongMs);

  useEffect(() => {
    if (open && current.isSuccess) form.setFieldsValue(stored ?? { type: DEFAULT_WEBHOOK_TYPE, url: '', secret: '' });
  }, [open, current.isSuccess, stored, form]);

  /** The form's values once its rules pass (the secret dropped for WeCom), or null. */
  const values = async (): Promise<Values | null> => {
    try {
      const v = await form.validateFields();
      return { ...v, secret: webhookUsesSecret(v.type) ? (v.secret ?? '') : '' };
    } catch {
      return null;
    }
  };

  /** The URL is the one field the server can refuse after the form passed (not a public address): say it where it was typed. */
  const urlRefused = (msg: string) => {
    if (msg === monitorMessages.webhookUrlPrivate) form.setFields([{ name: 'url', errors: [msg] }]);
  };

  const onSave = () =>
    saving.run(async () => {
      const v = await values();
      if (!v) return;
      const env = await save.mutateAsync(v);
      if (env.code === CODE.ok) onClose();
      else urlRefused(env.msg);
    });
  const onTest = () =>
    testing.run(async () => {
      const v = await values();
      if (v) urlRefused((await test.mutateAsync(v)).msg);
    });
  const onDelete = () =>
    deleting.run(async () => {
      if ((await remove.mutateAsync(undefined)).code === CODE.ok) onClose();
    });

  const footer = (
    <Flex justify="space-between" gap={8} wrap>
      <Flex gap={8}>
        {rights.edit && stored && (
          <Popconfirm title={monitorMessages.webhookDeleteConfirm} onConfirm={onDelete}>
            <Button danger loading={deleting.busy}>
              {monitorMessages.webhookDelete}
            </Button>
          </Popconfirm>
        )}
        {rights.edit && (
          <Popconfirm title={monitorMessages.webhookTestConfirm} onConfirm={onTest}>
            <Button loading={testing.busy}>{monitorMessages.webhookTest}</Button>
          </Popconfirm>
        )}
      </Flex>
      <Flex gap={8}>
        <Button onClick={onClose}>{rights.edit ? BM.cancel : BM.close}</Button>
        {rights.edit && (
          <Button type="primary" loading={saving.busy} onClick={() => void onSave()}>
            {BM.save}
          </Button>
        )}
      </Flex>
    </Flex>
  );

  return (
    <Modal title={monitorMessages.monitorWebhookConfig} open={open} onCancel={onClose} footer={footer} forceRender width={560}>
      <Form<Values> form={form} layout="vertical" requiredMark={false} disabled={!rights.edit || current.isPending} initialValues={{ type: DEFAULT_WEBHOOK_TYPE }}>
        <WebhookTargetFields schema={webhookSetting.body} type={type} />
        {type === 'other' && <Typography.Paragraph type="secondary">{monitorMessages.webhookOtherHint}</Typography.Paragraph>}
      </Form>
    </Modal>
  );
}
