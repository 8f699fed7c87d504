import { fmt, LDAP_SYNC_MODE, LDAP_TYPE, LIMITS, M, ldapSyncStatus, setLdapSyncMode, type LdapConfig } from '@hublink/contract';
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

const securityOf = (c: LdapConfig) => (c.use_ssl === 1 ? `${M.ldapSsl} (LDAPS)` : c.use_tls === 1 ? `${M.ldapTls} (StartTLS)` : M.ldapSecurityNone);

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
      aria-label={M.ldapSyncMode}
      onChange={(e) => void run(async () => void (await save.mutateAsync({ sync_mode: Number(e.target.value) })))}
      options={[
        { value: LDAP_SYNC_MODE.manual, label: M.ldapSyncManual },
        { value: LDAP_SYNC_MODE.automatic, label: M.ldapSyncAuto },
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
    { key: 'mode', label: M.ldapMode, children: config.mode === 'private' ? M.ldapModePrivate : M.ldapModePublic },
    ...(config.mode === 'private' ? [{ key: 'router', label: M.ldapRouter, children: config.router_name }] : []),
    { key: 'host', label: M.ldapHost, children: `${config.host}:${config.port}` },
    { key: 'security', label: M.ldapSecurity, children: securityOf(config) },
    ...(config.file_name ? [{ key: 'ca', label: M.ldapCa, children: config.file_name }] : []),
  ];
  const account: Items = [
    { key: 'type', label: M.ldapType, children: config.type === LDAP_TYPE.ad ? M.ldapTypeAd : M.ldapTypeOpenLdap },
    { key: 'username', label: M.ldapUsername, children: config.username },
    { key: 'password', label: M.ldapPassword, children: config.password },
    { key: 'base', label: M.ldapBaseDn, children: config.base_dn },
    { key: 'domain', label: M.ldapDomain, children: config.domain },
  ];
  const association: Items = [
    { key: 'network', label: M.ldapNetwork, children: config.network_name || M.ldapNetworkNone },
    { key: 'sync', label: M.ldapSyncMode, children: <SyncModeSwitch value={config.sync_mode} editable={rights.configure} /> },
    { key: 'time', label: M.ldapConfigTime, children: config.update_time },
  ];
  const service = status?.service;
  const running = service?.status === 1;
  const state: Items = service
    ? [
        { key: 'status', label: M.ldapServiceStatus, children: <Badge status={running ? 'success' : 'error'} text={running ? M.ldapServiceRunning : M.ldapServiceAbnormal} /> },
        { key: 'last', label: M.ldapLastSync, children: service.update_time || M.ldapNeverSynced },
        { key: 'count', label: M.ldapUserCount, children: status.count },
        ...(automatic
          ? [
              { key: 'cycle', label: M.ldapCycle, children: fmt(M.ldapCycleValue, { n: service.cycle }) },
              { key: 'duration', label: M.ldapDuration, children: fmt(M.ldapDurationValue, { n: service.operation_hours }) },
            ]
          : []),
      ]
    : [];
  return (
    <Row gutter={[16, 16]}>
      {[
        [M.ldapGroupConnection, connection],
        [M.ldapGroupAccount, account],
        [M.ldapGroupAssociation, association],
      ].map(([title, items]) => (
        <Col key={title as string} xs={24} md={12} xxl={6}>
          <Group title={title as string} items={items as Items} />
        </Col>
      ))}
      <Col xs={24} md={12} xxl={6}>
        <Group title={M.ldapGroupStatus} items={state}>
          {service && !running && service.message && <Alert type="error" showIcon title={service.message} style={{ marginTop: 8 }} />}
        </Group>
      </Col>
    </Row>
  );
}
