import { fmt, getMemberProfile, memberProfiles, reissueMemberProfile, SM, CM } from '@hublink/contract';
import { Alert, Button, Descriptions, Flex, Popconfirm, Table, Typography } from 'antd';
import { useState } from 'react';
import { download } from '../../api/files';
import { useApiQuery } from '../../api/hooks';
import { selfPageUrl } from '../../session/paths';
import { useRouterMutation } from './api';

/**
 * A software member's connection (issue 30): the login its people type, a profile per network for any
 * standard OpenVPN client, re-issuing (the old profile stops at once), and how to connect per platform.
 */
export function ConnectionTab({ routerName }: { routerName: string }) {
  const profiles = useApiQuery(memberProfiles, { router_name: routerName });
  const reissue = useRouterMutation(reissueMemberProfile);
  const [fetching, setFetching] = useState('');
  const data = profiles.data?.data;

  const save = async (network_number: string) => {
    setFetching(network_number);
    try {
      await download(getMemberProfile, { network_number, router_name: routerName }, `${routerName}-${network_number}.ovpn`);
    } finally {
      setFetching('');
    }
  };

  return (
    <Flex vertical gap={16}>
      <Descriptions size="small" column={1} bordered styles={{ label: { whiteSpace: 'nowrap' } }}>
        <Descriptions.Item label={CM.connectUsername}>
          <Typography.Text copyable={data ? { text: data.login } : false}>{data ? (data.phone ? fmt(CM.profileUsernameHint, { login: data.login, phone: data.phone }) : data.login) : '-'}</Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={CM.connectPassword}>{CM.profilePasswordHint}</Descriptions.Item>
        <Descriptions.Item label={SM.selfPageLabel}>
          <Flex vertical gap={2}>
            <Typography.Text copyable>{selfPageUrl()}</Typography.Text>
            <Typography.Text type="secondary">{SM.selfPageHint}</Typography.Text>
          </Flex>
        </Descriptions.Item>
      </Descriptions>
      <Table
        rowKey="network_number"
        size="small"
        loading={profiles.isLoading}
        dataSource={data?.networks ?? []}
        pagination={false}
        locale={{ emptyText: CM.profileNoNetwork }}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: CM.profileNetworkName, dataIndex: 'network_name', key: 'network_name' },
          { title: CM.profileNetworkNumber, dataIndex: 'network_number', key: 'network_number' },
          {
            title: CM.profileActions,
            key: 'actions',
            render: (_: unknown, n: { network_number: string }) => (
              <Button type="link" size="small" loading={fetching === n.network_number} onClick={() => void save(n.network_number)}>
                {CM.profileDownload}
              </Button>
            ),
          },
        ]}
      />
      <Flex justify="space-between" align="center" wrap gap={8}>
        <Typography.Text type="secondary">{CM.profileKeepPrivate}</Typography.Text>
        <Popconfirm title={CM.profileReissueConfirm} onConfirm={() => reissue.mutateAsync({ router_name: routerName })} overlayStyle={{ maxWidth: 320 }}>
          <Button danger loading={reissue.isPending} disabled={!data || data.networks.length === 0}>
            {CM.profileReissue}
          </Button>
        </Popconfirm>
      </Flex>
      <Alert
        type="info"
        showIcon
        title={CM.profileHowTo}
        description={
          <ul style={{ margin: 0, paddingInlineStart: 18 }}>
            <li>{CM.profileHowToConnect}</li>
            <li>{CM.profileHowToMac}</li>
            <li>{CM.profileHowToLinux}</li>
            <li>
              <Typography.Text code style={{ wordBreak: 'break-all' }}>
                {fmt(CM.profileHowToAgent, { url: window.location.origin, login: data?.login ?? '' })}
              </Typography.Text>
            </li>
          </ul>
        }
      />
    </Flex>
  );
}
