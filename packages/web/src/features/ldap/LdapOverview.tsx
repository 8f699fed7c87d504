import { fmt, LDAP_SYNC_MODE, LDAP_TYPE, type LdapConfig, ldapMessages, ldapSyncStatus, LIMITS, setLdapSyncMode } from '@hublink/contract';
import { Alert, Badge, Card, Col, Descriptions, Radio, Row, type DescriptionsProps } from 'antd';
import type { ReactNode } from 'react';
import { useApiQuery } from '../../api/hooks';
import { useGuardedBusy } from '../../components/useGuardedBusy';
import { LDAP_CALL, useLdapMutation, type LdapRights } from './api';

type Items = NonNullable<DescriptionsProps['items']>;

/** One group of the overview: a card of label–value rows. */
function Group({ title, items, children }: { title: string; items: Items; children?: ReactNode }) {
  return (
    <Card size="small" title={title} style={{ height: '100%' }} role="region" aria-label={title}>
      <Descriptions column={1} size="small" items={items} />
      {children}
    </Card>
  );
}

const securityOf = (c: LdapConfig) => (c.use_ssl === 1 ? `${ldapMessages.ldapSsl} (LDAPS)` : c.use_tls === 1 ? `${ldapMessages.ldapTls} (StartTLS)` : ldapMessages.ldapSecurityNone);

/** The sync mode, switched in place by the main account; one switch per 3 s at most (spec 3 §9). */
function SyncModeSwitch({ value, editable }: { value: number; editable: boolean }) {
  const save = useLdapMutation(setLdapSyncMode);
  const { busy, run } = useGuardedBusy(LIMITS.submitGuardLdapModeMs);
  return (
    <Radio.Group
      optionType="button"
      buttonStyle="solid"
      size="small"
      value={value}
      disabled={!editable || busy}
      aria-label={ldapMessages.ldapSyncMode}
      onChange={(e) => void run(async () => void (await save.mutateAsync({ sync_mode: Number(e.target.value) })))}
      options={[
        { value: LDAP_SYNC_MODE.manual, label: ldapMessages.ldapSyncManual },
        { value: LDAP_SYNC_MODE.automatic, label: ldapMessages.ldapSyncAuto },
      ]}
    />
  );
}

/**
 * The enabled directory at a glance (spec 3 §2): the groups connection, account, association and
 * status. In automatic mode the service's details show; its message whenever it is abnormal.
 */
export function LdapOverview({ config, rights }: { config: LdapConfig; rights: LdapRights }) {
  const status = useApiQuery(ldapSyncStatus, undefined, LDAP_CALL).data?.data;
  const automatic = config.sync_mode === LDAP_SYNC_MODE.automatic;
  const connection: Items = [
    { key: 'mode', label: ldapMessages.ldapMode, children: config.mode === 'private' ? ldapMessages.ldapModePrivate : ldapMessages.ldapModePublic },
    ...(config.mode === 'private' ? [{ key: 'router', label: ldapMessages.ldapRouter, children: config.router_name }] : []),
    { key: 'host', label: ldapMessages.ldapHost, children: `${config.host}:${config.port}` },
    { key: 'security', label: ldapMessages.ldapSecurity, children: securityOf(config) },
    ...(config.file_name ? [{ key: 'ca', label: ldapMessages.ldapCa, children: config.file_name }] : []),
  ];
  const account: Items = [
    { key: 'type', label: ldapMessages.ldapType, children: config.type === LDAP_TYPE.ad ? ldapMessages.ldapTypeAd : ldapMessages.ldapTypeOpenLdap },
    { key: 'username', label: ldapMessages.ldapUsername, children: config.username },
    { key: 'password', label: ldapMessages.ldapPassword, children: config.password },
    { key: 'base', label: ldapMessages.ldapBaseDn, children: config.base_dn },
    { key: 'domain', label: ldapMessages.ldapDomain, children: config.domain },
  ];
  const association: Items = [
    { key: 'network', label: ldapMessages.ldapNetwork, children: config.network_name || ldapMessages.ldapNetworkNone },
    { key: 'sync', label: ldapMessages.ldapSyncMode, children: <SyncModeSwitch value={config.sync_mode} editable={rights.configure} /> },
    { key: 'time', label: ldapMessages.ldapConfigTime, children: config.update_time },
  ];
  const service = status?.service;
  const running = service?.status === 1;
  const state: Items = service
    ? [
        { key: 'status', label: ldapMessages.ldapServiceStatus, children: <Badge status={running ? 'success' : 'error'} text={running ? ldapMessages.ldapServiceRunning : ldapMessages.ldapServiceAbnormal} /> },
        { key: 'last', label: ldapMessages.ldapLastSync, children: service.update_time || ldapMessages.ldapNeverSynced },
        { key: 'count', label: ldapMessages.ldapUserCount, children: status.count },
        ...(automatic
          ? [
              { key: 'cycle', label: ldapMessages.ldapCycle, children: fmt(ldapMessages.ldapCycleValue, { n: service.cycle }) },
              { key: 'duration', label: ldapMessages.ldapDuration, children: fmt(ldapMessages.ldapDurationValue, { n: service.operation_hours }) },
            ]
          : []),
      ]
    : [];
  return (
    <Row gutter={[16, 16]}>
      {[
        [ldapMessages.ldapGroupConnection, connection],
        [ldapMessages.ldapGroupAccount, account],
        [ldapMessages.ldapGroupAssociation, association],
      ].map(([title, items]) => (
        <Col key={title as string} xs={24} md={12} xxl={6}>
          <Group title={title as string} items={items as Items} />
        </Col>
      ))}
      <Col xs={24} md={12} xxl={6}>
        <Group title={ldapMessages.ldapGroupStatus} items={state}>
          {service && !running && service.message && <Alert type="error" showIcon title={service.message} style={{ marginTop: 8 }} />}
        </Group>
      </Col>
    </Row>
  );
}
