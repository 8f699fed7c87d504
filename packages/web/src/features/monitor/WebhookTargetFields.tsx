import { LIMITS, monitorMessages as T, WEBHOOK_TYPES, type WebhookType, webhookUsesSecret } from '@hublink/contract';
import { Form, Input, Select } from 'antd';
import type { z } from 'zod';
import { rulesOf } from '../../api/rules';

const TYPE_OPTIONS = (Object.keys(WEBHOOK_TYPES) as WebhookType[]).map((value) => ({ value, label: WEBHOOK_TYPES[value] }));

/**
 * Where a webhook posts: its type, URL and signing secret (none for WeCom; a stored one shows as the
 * mask and is kept unless replaced). The spec's one-webhook dialog and the dialog of one of several
 * share them; `schema` is the call the form sends, whose rules the fields take.
 */
export function WebhookTargetFields({ schema, type }: { schema: z.ZodType; type: WebhookType }) {
  return (
    <>
      <Form.Item name="type" label={T.webhookType} rules={rulesOf(schema, 'type')}>
        <Select options={TYPE_OPTIONS} aria-label={T.webhookType} />
      </Form.Item>
      <Form.Item name="url" label={T.webhookUrl} rules={rulesOf(schema, 'url')}>
        <Input maxLength={LIMITS.webhookUrlMax} placeholder={T.webhookUrlPlaceholder} autoComplete="off" />
      </Form.Item>
      {webhookUsesSecret(type) && (
        <Form.Item name="secret" label={T.webhookSecret} rules={rulesOf(schema, 'secret')}>
          <Input.Password maxLength={LIMITS.webhookSecretMax} placeholder={T.webhookSecretPlaceholder} autoComplete="new-password" />
        </Form.Item>
      )}
    </>
  );
}
