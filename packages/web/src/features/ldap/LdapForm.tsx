import { BM, type BodyOf, checkLdap, CODE, fmt, LDAP_PASSWORD_MASK, LDAP_SYNC_MODE, LDAP_TYPE, type LdapConfig, ldapConfigBody, ldapDomainPending, ldapMessages, type LdapMode, LIMITS, routerHardware, saveLdap, selectNetworks } from '@hublink/contract';
import { Button, Col, Divider, Flex, Form, Input, InputNumber, Radio, Row, Select, Switch } from 'antd';
import type { Rule } from 'antd/es/form';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useApiQuery } from '../../api/hooks';
import { rulesOf } from '../../api/rules';
import { useGuardedBusy } from '../../components/useGuardedBusy';
import { useLdapMutation } from './api';
import { CaUpload } from './CaUpload';
import { DomainHint, type PendingDomain } from './DomainHint';
import { PreviewPanel } from './PreviewPanel';
import { SelectionFields } from './SelectionFields';

type Security = 'none' | 'ssl' | 'tls';

export interface LdapFormValues {
  mode: LdapMode;
  router_name?: string;
  domain: string;
  host: string;
  port: string;
  base_dn: string;
  security: Security;
  ca_id: number | null;
  type: number;
  username: string;
  password: string;
  // user selection and mapping (issue 33, SelectionFields)
  user_group?: string;
  user_filter?: string;
  name_attr?: string;
  name_lower?: boolean;
  note_attr?: string;
  phone_attr?: string;
  email_attr?: string;
  network_number?: string;
  sync_mode: number;
  auto_import: boolean;
  sync_cycle: number | null;
}

const PORTS: Record<Security, string> = { none: '389', ssl: '636', tls: '389' };

/** The form's values as /ldap/check and /ldap/save carry them. */
export function bodyOf(v: LdapFormValues): BodyOf<typeof saveLdap> {
  return {
    mode: v.mode,
    router_name: v.mode === 'private' ? (v.router_name ?? '') : '',
    domain: v.domain,
    host: v.host,
    port: v.port,
    base_dn: v.base_dn,
    use_ssl: v.security === 'ssl' ? 1 : 0,
    use_tls: v.security === 'tls' ? 1 : 0,
    ca_id: v.security === 'none' ? null : v.ca_id,
    type: v.type,
    username: v.username,
    password: v.password,
    user_group: v.user_group ?? '',
    user_filter: v.user_filter ?? '',
    name_attr: v.name_attr ?? '',
    name_lower: v.name_lower ? 1 : 0,
    note_attr: v.note_attr ?? '',
    phone_attr: v.phone_attr ?? '',
    email_attr: v.email_attr ?? '',
    network_number: v.network_number ?? '',
    sync_mode: v.sync_mode,
    auto_import: v.auto_import ? 1 : 0,
    sync_cycle: v.sync_cycle ?? LIMITS.ldapSyncCycleMinutes,
  };
}

/** The saved configuration as the form shows it (the password as the mask, which keeps it). */
export const valuesOf = (c: LdapConfig): LdapFormValues => ({
  mode: c.mode,
  router_name: c.router_name || undefined,
  domain: c.domain,
  host: c.host,
  port: String(c.port),
  base_dn: c.base_dn,
  security: c.use_ssl === 1 ? 'ssl' : c.use_tls === 1 ? 'tls' : 'none',
  ca_id: c.ca_id,
  type: c.type,
  username: c.username,
  password: LDAP_PASSWORD_MASK,
  user_group: c.user_group,
  user_filter: c.user_filter,
  name_attr: c.name_attr,
  name_lower: c.name_lower === 1,
  note_attr: c.note_attr,
  phone_attr: c.phone_attr,
  email_attr: c.email_attr,
  network_number: c.network_number || undefined,
  sync_mode: c.sync_mode,
  auto_import: c.auto_import === 1,
  sync_cycle: c.sync_cycle,
});

export const NEW_VALUES: Partial<LdapFormValues> = { mode: 'public', port: PORTS.none, security: 'none', ca_id: null, type: LDAP_TYPE.openldap, note_attr: 'description', sync_mode: LDAP_SYNC_MODE.manual, auto_import: false, sync_cycle: LIMITS.ldapSyncCycleMinutes };

const same = (a: LdapFormValues, b: LdapFormValues) => JSON.stringify(bodyOf(a)) === JSON.stringify(bodyOf(b));
const rules = (field: string) => rulesOf(ldapConfigBody, field);

/** A rule that holds only when `when` does (the router in private mode, the CA with SSL). */
const requiredWhen =
  (when: (get: (name: string) => unknown) => boolean, message: string): Rule =>
  ({ getFieldValue }) => ({
    validator: async (_rule, value: unknown) => {
      if (when(getFieldValue) && (value === undefined || value === null || value === '')) throw new Error(message);
    },
  });

/**
 * The LDAP form (spec 3 §4, §5): every field with the server's rules. The main button checks the
 * connection first (检测配置, '检测中...'), then saves (保存配置, '保存中...') and goes to /router/ldap;
 * any change after a check asks for a check again. Editing, the saved configuration saves directly
 * (直接保存) while the form still equals it. A saved base_dn may change (issue 33: members follow their users by stable id);
 * the automatic mode's cycle and auto-import show in automatic mode only. A save answered 423 shows the
 * domain hint; a host the server refuses as not public shows under the host. The button stays busy at most 60 s.
 */
export function LdapForm({ saved, initial }: { saved?: LdapConfig; initial: Partial<LdapFormValues> }) {
  const [form] = Form.useForm<LdapFormValues>();
  const navigate = useNavigate();
  const check = useLdapMutation(checkLdap);
  const save = useLdapMutation(saveLdap);
  const { busy, run } = useGuardedBusy(LIMITS.submitGuardLongMs);
  const [phase, setPhase] = useState<'check' | 'save'>('check');
  const [checked, setChecked] = useState(false);
  const [pending, setPending] = useState<PendingDomain | null>(null);
  const [caName, setCaName] = useState(saved?.file_name ?? '');
  const mode = Form.useWatch('mode', form);
  const security = Form.useWatch('security', form);
  const automatic = Form.useWatch('sync_mode', form) === LDAP_SYNC_MODE.automatic;
  const values = Form.useWatch([], form);
  const routers = useApiQuery(routerHardware, {}, { enabled: mode === 'private' }).data?.data ?? [];
  const networks = useApiQuery(selectNetworks).data?.data ?? [];

  const unchanged = saved !== undefined && values !== undefined && same({ ...valuesOf(saved), ...values }, valuesOf(saved));
  const savesNow = checked || unchanged;
  // 检测配置 first; 保存配置 after a passed check; 直接保存 while the saved configuration is unchanged (spec 3 §4).
  const idle = checked ? ldapMessages.ldapSave : unchanged ? ldapMessages.ldapSaveDirect : ldapMessages.ldapCheck;
  const label = busy ? (phase === 'save' ? ldapMessages.ldapSaving : ldapMessages.ldapChecking) : idle;

  /** What the server can refuse after the form passed, said where it was typed: the host (not a public address), the group and the filter (issue 33). */
  const hostRefused = (msg: string) => {
    if (msg === ldapMessages.ldapHostPrivate) form.setFields([{ name: 'host', errors: [msg] }]);
    if (msg === ldapMessages.ldapGroupMissing || msg === ldapMessages.ldapGroupNotGroup || msg.startsWith(ldapMessages.ldapGroupTooDeep.split('{')[0]!) || msg.startsWith(ldapMessages.ldapGroupTooLarge.split('{')[0]!)) {
      form.setFields([{ name: 'user_group', errors: [msg] }]);
    }
    if (msg.startsWith(ldapMessages.ldapFilterRefused.split('{')[0]!)) form.setFields([{ name: 'user_filter', errors: [msg] }]);
  };
  const type = Form.useWatch('type', form);

  const submit = () =>
    run(async () => {
      const v = await form.validateFields().catch(() => null);
      if (!v) return;
      const body = bodyOf(v);
      if (!savesNow) {
        setPhase('check');
        const env = await check.mutateAsync(body);
        if (env.code === CODE.ok) setChecked(true);
        else hostRefused(env.msg);
        return;
      }
      setPhase('save');
      const env = await save.mutateAsync(body);
      hostRefused(env.msg);
      if (env.code === CODE.ok) void navigate('/router/ldap');
      else if (env.code === CODE.furtherAction) {
        const data = ldapDomainPending.safeParse(env.data);
        setPending({ domain: body.domain, message: env.msg, ...(data.success ? data.data : { file_name: '' }) });
      }
    });

  return (
    <Form<LdapFormValues>
      form={form}
      name="ldap"
      layout="vertical"
      requiredMark
      initialValues={initial}
      style={{ maxWidth: 880, margin: '0 auto' }}
      onValuesChange={(changed: Partial<LdapFormValues>) => {
        setChecked(false);
        if ('domain' in changed) setPending(null);
        if (changed.security) form.setFieldValue('port', PORTS[changed.security]);
      }}
      onFinish={() => void submit()}
    >
      <Divider titlePlacement="start">{ldapMessages.ldapGroupConnection}</Divider>
      <Row gutter={24}>
        <Col xs={24} md={12}>
          <Form.Item name="mode" required label={ldapMessages.ldapMode} rules={rules('mode')}>
            <Radio.Group
              aria-label={ldapMessages.ldapMode}
              optionType="button"
              options={[
                { value: 'public', label: ldapMessages.ldapModePublic },
                { value: 'private', label: ldapMessages.ldapModePrivate },
              ]}
            />
          </Form.Item>
        </Col>
        {mode === 'private' && (
          <Col xs={24} md={12}>
            <Form.Item name="router_name" required label={ldapMessages.ldapRouter} extra={ldapMessages.ldapRouterHint} rules={[requiredWhen((get) => get('mode') === 'private', ldapMessages.ldapRouterRequired)]}>
              <Select
                aria-label={ldapMessages.ldapRouter}
                placeholder={ldapMessages.ldapRouterRequired}
                showSearch={{ optionFilterProp: 'label' }}
                options={routers.map((r) => ({ value: r.router_name, label: r.note ? fmt(ldapMessages.ldapRouterOption, { name: r.router_name, note: r.note }) : r.router_name }))}
              />
            </Form.Item>
          </Col>
        )}
      </Row>
      <Row gutter={24}>
        <Col xs={24} md={16}>
          <Form.Item name="host" required label={ldapMessages.ldapHost} rules={rules('host')}>
            <Input placeholder={ldapMessages.ldapHostPlaceholder} maxLength={LIMITS.ldapHostMax} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="port" required label={ldapMessages.ldapPort} rules={rules('port')} extra={ldapMessages.ldapPortHint}>
            <Input inputMode="numeric" maxLength={LIMITS.ldapPortDigits} autoComplete="off" />
          </Form.Item>
        </Col>
      </Row>
      <Row gutter={24}>
        <Col xs={24} md={12}>
          <Form.Item name="security" label={ldapMessages.ldapSecurity}>
            <Radio.Group
              aria-label={ldapMessages.ldapSecurity}
              optionType="button"
              options={[
                { value: 'none', label: ldapMessages.ldapSecurityNone },
                { value: 'ssl', label: ldapMessages.ldapSsl },
                { value: 'tls', label: ldapMessages.ldapTls },
              ]}
            />
          </Form.Item>
        </Col>
        {security && security !== 'none' && (
          <Col xs={24} md={12}>
            <Form.Item name="ca_id" label={ldapMessages.ldapCa} required={security === 'ssl'} dependencies={['security']} rules={[requiredWhen((get) => get('security') === 'ssl', ldapMessages.ldapCaRequired)]}>
              <CaUpload fileName={caName} onFileName={setCaName} />
            </Form.Item>
          </Col>
        )}
      </Row>

      <Divider titlePlacement="start">{ldapMessages.ldapGroupAccount}</Divider>
      <Row gutter={24}>
        <Col xs={24} md={12}>
          <Form.Item name="type" required label={ldapMessages.ldapType} rules={rules('type')}>
            <Radio.Group
              aria-label={ldapMessages.ldapType}
              optionType="button"
              options={[
                { value: LDAP_TYPE.openldap, label: ldapMessages.ldapTypeOpenLdap },
                { value: LDAP_TYPE.ad, label: ldapMessages.ldapTypeAd },
              ]}
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="domain" required label={ldapMessages.ldapDomain} rules={rules('domain')} normalize={(v: string) => v.toLowerCase()}>
            <Input placeholder={ldapMessages.ldapDomainPlaceholder} maxLength={LIMITS.ldapDomainMax} autoComplete="off" />
          </Form.Item>
        </Col>
      </Row>
      {pending && (
        <div style={{ marginBottom: 24 }}>
          <DomainHint
            pending={pending}
            onVerified={() => setPending(null)}
            onRefused={(message) => form.setFields([{ name: 'domain', errors: [message] }])}
          />
        </div>
      )}
      <Form.Item name="base_dn" required label={ldapMessages.ldapBaseDn} rules={rules('base_dn')} extra={saved ? ldapMessages.ldapBaseDnChangeHint : undefined}>
        <Input placeholder={ldapMessages.ldapBaseDnPlaceholder} maxLength={LIMITS.ldapBaseDnMax} autoComplete="off" />
      </Form.Item>
      <Row gutter={24}>
        <Col xs={24} md={12}>
          <Form.Item name="username" required label={ldapMessages.ldapUsername} rules={rules('username')}>
            <Input placeholder={ldapMessages.ldapUsernamePlaceholder} maxLength={LIMITS.ldapUsernameMax} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="password" required label={ldapMessages.ldapPassword} rules={rules('password')}>
            <Input.Password
              placeholder={ldapMessages.ldapPasswordRequired}
              maxLength={LIMITS.ldapPasswordMax}
              autoComplete="new-password"
              // The mask stands for the saved password: typing replaces it whole.
              onFocus={(e) => e.target.value === LDAP_PASSWORD_MASK && e.target.select()}
            />
          </Form.Item>
        </Col>
      </Row>

      <Divider titlePlacement="start">{ldapMessages.ldapGroupSelection}</Divider>
      <SelectionFields type={type} />
      <PreviewPanel body={async () => ((await form.validateFields().catch(() => null)) ? bodyOf(form.getFieldsValue(true) as LdapFormValues) : null)} onRefused={hostRefused} />

      <Divider titlePlacement="start">{ldapMessages.ldapGroupAssociation}</Divider>
      <Row gutter={24}>
        <Col xs={24} md={12}>
          <Form.Item name="network_number" label={ldapMessages.ldapNetwork} extra={ldapMessages.ldapNetworkHint}>
            <Select
              aria-label={ldapMessages.ldapNetwork}
              allowClear
              placeholder={ldapMessages.ldapNetworkNone}
              showSearch={{ optionFilterProp: 'label' }}
              options={networks.map((n) => ({ value: n.network_number, label: n.network_name }))}
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="sync_mode" required label={ldapMessages.ldapSyncMode} rules={rules('sync_mode')}>
            <Radio.Group
              aria-label={ldapMessages.ldapSyncMode}
              optionType="button"
              options={[
                { value: LDAP_SYNC_MODE.manual, label: ldapMessages.ldapSyncManual },
                { value: LDAP_SYNC_MODE.automatic, label: ldapMessages.ldapSyncAuto },
              ]}
            />
          </Form.Item>
        </Col>
      </Row>
      {/* Kept in the form while hidden (manual mode): a save keeps the tenant's choices. */}
      <Row gutter={24}>
        <Col xs={24} md={12}>
          <Form.Item name="sync_cycle" hidden={!automatic} required label={ldapMessages.ldapSyncCycle} rules={rules('sync_cycle')} extra={ldapMessages.ldapSyncCycleHint}>
            {/* No min/max here: a value out of range gets the rule's message instead of being corrected silently. */}
            <InputNumber aria-label={ldapMessages.ldapSyncCycle} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="auto_import" hidden={!automatic} valuePropName="checked" label={ldapMessages.ldapAutoImport} extra={ldapMessages.ldapAutoImportHint}>
            <Switch aria-label={ldapMessages.ldapAutoImport} />
          </Form.Item>
        </Col>
      </Row>

      <Flex gap={8} justify="end" wrap>
        <Button onClick={() => void navigate('/router/ldap')}>{BM.back}</Button>
        <Button type="primary" htmlType="submit" loading={busy}>
          {label}
        </Button>
      </Flex>
    </Form>
  );
}
