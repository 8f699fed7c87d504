import { approveDevice, DEVICE_APPROVAL_FILTERS, type DeviceApprovalItem, deviceApprovalMessages, type DeviceApprovalState, getDeviceApprovalSetting, listDeviceApprovals, refuseDevice, saveDeviceApprovalSetting } from '@hublink/contract';
import { Button, Card, Flex, Grid, Popconfirm, Segmented, Space, Switch, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useApiQuery } from '../../api/hooks';
import { usePagedList } from '../../api/usePagedList';
import { useStepBackWhenEmpty } from '../../api/useStepBackWhenEmpty';
import { mayVisit } from '../../session/guard';
import { useUser } from '../../session/user';
import { PageContainer } from '../../components/PageContainer';
import { PagedTable } from '../../components/PagedTable';
import { useDeviceApprovalMutation } from './api';

type Filter = (typeof DEVICE_APPROVAL_FILTERS)[number];

const STATE: Record<DeviceApprovalState, { color: string; label: string }> = {
  waiting: { color: 'orange', label: deviceApprovalMessages.deviceApprovalWaiting },
  approved: { color: 'green', label: deviceApprovalMessages.deviceApprovalApproved },
  refused: { color: 'red', label: deviceApprovalMessages.deviceApprovalRefused },
};

const FILTER_LABEL: Record<Filter, string> = {
  waiting: deviceApprovalMessages.deviceApprovalFilterWaiting,
  decided: deviceApprovalMessages.deviceApprovalFilterDecided,
  all: deviceApprovalMessages.deviceApprovalFilterAll,
};

const modelOf = (r: DeviceApprovalItem) => [r.brand, r.model].filter(Boolean).join(' ') || '—';

/** The tenant's setting: a switch that asks before it changes anything (main accounts only; others see it). */
function ApprovalSwitch({ mayChange }: { mayChange: boolean }) {
  const setting = useApiQuery(getDeviceApprovalSetting);
  const save = useDeviceApprovalMutation(saveDeviceApprovalSetting);
  const on = setting.data?.data?.enabled === 1;
  const toggle = (
    <Switch
      checked={on}
      loading={setting.isLoading || save.isPending}
      disabled={!mayChange || setting.isLoading}
      aria-label={deviceApprovalMessages.deviceApprovalSwitch}
    />
  );
  return (
    <Space>
      <Typography.Text strong>{deviceApprovalMessages.deviceApprovalSwitch}</Typography.Text>
      {mayChange ? (
        <Popconfirm title={on ? deviceApprovalMessages.deviceApprovalDisableConfirm : deviceApprovalMessages.deviceApprovalEnableConfirm} onConfirm={() => save.mutateAsync({ enabled: on ? 0 : 1 })}>
          {toggle}
        </Popconfirm>
      ) : (
        toggle
      )}
    </Space>
  );
}

/** /router/device_approval: devices waiting to join and the decisions made (issue 30). */
export default function DeviceApprovalPage() {
  const user = useUser();
  const [filter, setFilter] = useState<Filter>('waiting');
  const list = usePagedList(listDeviceApprovals, { state: filter });
  useStepBackWhenEmpty(list);
  const approve = useDeviceApprovalMutation(approveDevice);
  const refuse = useDeviceApprovalMutation(refuseDevice);
  const mayDecide = mayVisit('easylink.router.edit', user);
  // On a phone the device's facts and its state go under the member's name, so the state stays in view beside the actions.
  const narrow = Grid.useBreakpoint().md === false;

  const stateTag = (r: DeviceApprovalItem) => <Tag color={STATE[r.state].color}>{STATE[r.state].label}</Tag>;
  const memberCell = (r: DeviceApprovalItem) => (
    <Space size={4} wrap>
      <span>{r.router_name}</span>
      <Tag>{r.router_type === 1 ? deviceApprovalMessages.deviceApprovalHardware : deviceApprovalMessages.deviceApprovalSoftware}</Tag>
    </Space>
  );
  const phoneColumns = [
    {
      title: deviceApprovalMessages.deviceApprovalMember,
      key: 'member',
      render: (_: unknown, r: DeviceApprovalItem) => (
        <Flex vertical gap={2}>
          {memberCell(r)}
          <span>{stateTag(r)}</span>
          <Typography.Text type="secondary">{r.ip}</Typography.Text>
          <Typography.Text type="secondary">{[r.os, modelOf(r)].filter((v) => v && v !== '—').join(' · ') || '—'}</Typography.Text>
          <Typography.Text type="secondary">{`${deviceApprovalMessages.deviceApprovalFirstSeen} ${r.first_time}`}</Typography.Text>
          {r.state !== 'waiting' && <Typography.Text type="secondary">{`${deviceApprovalMessages.deviceApprovalDecidedBy} ${r.decided_by || deviceApprovalMessages.deviceApprovalAuto}`}</Typography.Text>}
        </Flex>
      ),
    },
  ];
  const wideColumns = [
    { title: deviceApprovalMessages.deviceApprovalMember, key: 'member', render: (_: unknown, r: DeviceApprovalItem) => memberCell(r) },
    { title: deviceApprovalMessages.deviceApprovalAddress, dataIndex: 'ip', key: 'ip' },
    { title: deviceApprovalMessages.deviceApprovalOs, dataIndex: 'os', key: 'os', render: (v: string) => v || '—' },
    { title: deviceApprovalMessages.deviceApprovalModel, key: 'model', render: (_: unknown, r: DeviceApprovalItem) => modelOf(r) },
    {
      title: deviceApprovalMessages.deviceApprovalFirstSeen,
      dataIndex: 'first_time',
      key: 'first_time',
    },
    { title: deviceApprovalMessages.deviceApprovalState, key: 'state', render: (_: unknown, r: DeviceApprovalItem) => stateTag(r) },
    {
      title: deviceApprovalMessages.deviceApprovalDecidedBy,
      key: 'decided_by',
      render: (_: unknown, r: DeviceApprovalItem) =>
        r.state === 'waiting' ? (
          '—'
        ) : (
          <span>
            {r.decided_by || deviceApprovalMessages.deviceApprovalAuto}
            <br />
            <Typography.Text type="secondary">{r.decided_time}</Typography.Text>
          </span>
        ),
    },
  ];
  const columns = [
    ...(narrow ? phoneColumns : wideColumns),
    ...(mayDecide
      ? [
          {
            title: deviceApprovalMessages.deviceApprovalActions,
            key: 'actions',
            fixed: 'right' as const,
            render: (_: unknown, r: DeviceApprovalItem) => (
              <Space size={0}>
                {r.state !== 'approved' && (
                  <Popconfirm title={deviceApprovalMessages.deviceApprovalApproveConfirm} onConfirm={() => approve.mutateAsync({ id: r.id })}>
                    <Button type="link" size="small">
                      {deviceApprovalMessages.deviceApprovalApprove}
                    </Button>
                  </Popconfirm>
                )}
                {r.state !== 'refused' && (
                  <Popconfirm title={deviceApprovalMessages.deviceApprovalRefuseConfirm} onConfirm={() => refuse.mutateAsync({ id: r.id })}>
                    <Button type="link" size="small" danger>
                      {deviceApprovalMessages.deviceApprovalRefuse}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]
      : []),
  ];

  return (
    <PageContainer>
      <Flex vertical gap={16}>
        <Card size="small">
          <Flex vertical gap={8}>
            <ApprovalSwitch mayChange={mayVisit('main', user)} />
            <Typography.Text type="secondary">{deviceApprovalMessages.deviceApprovalIntro}</Typography.Text>
          </Flex>
        </Card>
        <PagedTable<DeviceApprovalItem>
          rowKey="id"
          columns={columns}
          list={list}
          searchable
          searchPlaceholder={deviceApprovalMessages.deviceApprovalSearch}
          toolbar={
            <Segmented<Filter>
              value={filter}
              onChange={(v) => {
                setFilter(v);
                list.setPage(1);
              }}
              options={DEVICE_APPROVAL_FILTERS.map((f) => ({ value: f, label: FILTER_LABEL[f] }))}
              aria-label={deviceApprovalMessages.deviceApprovalState}
            />
          }
          scroll={{ x: 'max-content' }}
        />
      </Flex>
    </PageContainer>
  );
}
