import { type AuthSourceDefaults, authSourceFields, authSourceInfo, type AuthSourceItem, authSourceMessages, type AuthSourceType, type BodyOf, CODE, createAuthSource, editAuthSource, LIMITS } from '@hublink/contract';
import { Form, Input, Select } from 'antd';
import { useEffect } from 'react';
import { useApiQuery } from '../../api/hooks';
import { rulesOf } from '../../api/rules';
import { FormDialog } from '../../components/FormDialog';
import { useSourceMutation } from './api';
import { CopyField } from './CopyField';
import { FIELD_LABELS } from './labels';

type Values = BodyOf<typeof createAuthSource>;

/** What GET /auth_source/code gave: the ID code, the type options and the defaults per type. */
export interface SourceConfig {
  code: string;
  types: { value: AuthSourceType; label: string }[];
  defaults: Record<AuthSourceType, AuthSourceDefaults>;
}

export interface AuthSourceDialogProps {
  open: boolean;
  /** The source to edit (its row); none to create one. */
  record?: AuthSourceItem;
  config: SourceConfig | undefined;
  onClose: () => void;
}

/**
 * Creates or edits a source (spec 3 §2, §5): the type decides the fields (agent_id for enterprise
 * WeChat, corp_id for DingTalk) and cannot change on edit; what the provider needs of us (trusted IPs,
 * the way back) and the ID code are shown read-only with a copy button. On edit the secret shows masked;
 * sent back unchanged it keeps the stored secret. The submit guard is 60 s (spec 3 §9).
 */
export function AuthSourceDialog({ open, record, config, onClose }: AuthSourceDialogProps) {
  const editing = record !== undefined;
  const create = useSourceMutation(createAuthSource);
  const edit = useSourceMutation(editAuthSource);
  const info = useApiQuery(authSourceInfo, { id: record?.id ?? 0 }, { enabled: open && editing });
  const mask = info.data?.data?.app_secret;

  const submit = async (values: Values) => {
    const env = editing ? await edit.mutateAsync({ ...values, id: record.id, type: record.type }) : await create.mutateAsync(values);
    return env.code === CODE.ok;
  };

  return (
    <FormDialog<Values>
      key={record?.id ?? 'new'}
      title={editing ? authSourceMessages.authSourceEdit : authSourceMessages.authSourceCreate}
      open={open}
      onClose={onClose}
      onSubmit={submit}
      guardMs={LIMITS.submitGuardLongMs}
      width={560}
      initialValues={
        editing ? { type: record.type, name: record.name, app_id: record.app_id, agent_id: record.agent_id, corp_id: record.corp_id, app_secret: mask } : {}
      }
    >
      <SourceFields editing={editing} fixedType={record?.type} mask={mask} config={config} />
    </FormDialog>
  );
}

/** The fields of the form: those of the chosen type, then what the provider needs of us and the ID code. */
function SourceFields({ editing, fixedType, mask, config }: { editing: boolean; fixedType?: AuthSourceType; mask?: string; config: SourceConfig | undefined }) {
  const form = Form.useFormInstance<Values>();
  const type = (Form.useWatch('type', form) as AuthSourceType | undefined) ?? fixedType;

  // The masked secret arrives after the dialog opens; it fills the field unless something was typed.
  useEffect(() => {
    if (mask !== undefined && !form.isFieldTouched('app_secret')) form.setFieldValue('app_secret', mask);
  }, [mask, form]);

  const labels = type ? FIELD_LABELS[type] : undefined;
  const defaults = type ? config?.defaults[type] : undefined;

  return (
    <>
      <Form.Item name="type" label={authSourceMessages.authSourceFieldType} rules={rulesOf(authSourceFields, 'type')}>
        <Select placeholder={authSourceMessages.authSourceTypeRequired} options={config?.types ?? []} disabled={editing} aria-label={authSourceMessages.authSourceFieldType} />
      </Form.Item>
      <Form.Item name="name" label={authSourceMessages.authSourceFieldName} rules={rulesOf(authSourceFields, 'name')}>
        <Input maxLength={LIMITS.authSourceNameMax} placeholder={authSourceMessages.authSourceNameRequired} />
      </Form.Item>
      {labels && (
        <>
          <Form.Item name="app_id" label={labels.appId} rules={rulesOf(authSourceFields, 'app_id')}>
            <Input maxLength={LIMITS.authSourceAppIdMax} placeholder={labels.appId} autoComplete="off" />
          </Form.Item>
          {type === 'wechat' && (
            <Form.Item name="agent_id" label={authSourceMessages.authSourceFieldAgentId} rules={rulesOf(authSourceFields, 'agent_id')}>
              <Input maxLength={LIMITS.authSourceAgentIdMax} placeholder={authSourceMessages.authSourceAgentIdRequired} inputMode="numeric" autoComplete="off" />
            </Form.Item>
          )}
          {type === 'dingtalk' && (
            <Form.Item name="corp_id" label={authSourceMessages.authSourceFieldCorpId} rules={rulesOf(authSourceFields, 'corp_id')}>
              <Input maxLength={LIMITS.authSourceCorpIdMax} placeholder={authSourceMessages.authSourceFieldCorpId} autoComplete="off" />
            </Form.Item>
          )}
          <Form.Item name="app_secret" label={labels.secret} rules={rulesOf(authSourceFields, 'app_secret')} extra={editing ? authSourceMessages.authSourceSecretKeep : undefined}>
            <Input.Password maxLength={LIMITS.authSourceAppSecretMax} placeholder={authSourceMessages.authSourceAppSecretRequired} autoComplete="new-password" />
          </Form.Item>
          <Form.Item label={authSourceMessages.authSourceFieldWhiteIp} extra={authSourceMessages.authSourceFieldWhiteIpHint}>
            <CopyField label={authSourceMessages.authSourceFieldWhiteIp} value={defaults?.white_ip ?? ''} empty={authSourceMessages.authSourceWhiteIpUnset} />
          </Form.Item>
          <Form.Item label={labels.authDomain} extra={labels.authDomainHint}>
            <CopyField label={labels.authDomain} value={defaults?.auth_domain ?? ''} />
          </Form.Item>
        </>
      )}
      <Form.Item label={authSourceMessages.authSourceCodeLabel} extra={authSourceMessages.authSourceCodeHint}>
        <CopyField label={authSourceMessages.authSourceCodeLabel} value={config?.code ?? ''} />
      </Form.Item>
    </>
  );
}
