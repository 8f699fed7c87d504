import { DownOutlined, EditOutlined } from '@ant-design/icons';
import { diagnosisMessages, LDAP_MEMBER_SOURCE, ROUTER_TYPE, type RouterItem, routerMessages, type RouterType } from '@hublink/contract';
import { Badge, Button, Dropdown, Space, Switch, Tooltip, type TableColumnsType } from 'antd';
import { Link } from 'react-router';
import { routerDetailPath } from '../../components/pageLinks';
import { shortNote } from '../../components/shortNote';
import type { MemberRights } from './rights';

/** What a row's controls open or do. */
export interface RowActions {
  note: (r: RouterItem) => void;
  remove: (r: RouterItem) => void;
  phone: (r: RouterItem) => void;
  password: (r: RouterItem) => void;
  detail: (r: RouterItem) => void;
  toggleStatus: (r: RouterItem) => void;
  /** 诊断 (issue 18): why the member is offline or degraded. */
  diagnose: (r: RouterItem) => void;
  /** The member whose status is being switched. */
  switching?: string;
}

function NoteCell({ r, editable, onEdit }: { r: RouterItem; editable: boolean; onEdit: () => void }) {
  const cut = shortNote(r.note);
  return (
    <Space size={4}>
      {cut !== r.note ? (
        <Tooltip title={r.note}>
          <span>{cut}</span>
        </Tooltip>
      ) : (
        <span>{r.note || '-'}</span>
      )}
      {editable && <Button type="text" size="small" icon={<EditOutlined />} aria-label={`${routerMessages.memberActionNote} ${r.router_name}`} onClick={onEdit} />}
    </Space>
  );
}

/** The member table's columns for one tab (spec 3 §2), with only the actions the user's role allows. */
export function memberColumns(type: RouterType, rights: MemberRights, act: RowActions): TableColumnsType<RouterItem> {
  const software = type === ROUTER_TYPE.software;
  const name = {
    title: software ? routerMessages.memberColAccount : routerMessages.memberColDevice,
    dataIndex: 'router_name',
    key: 'router_name',
    // Spec 3 §2: a software member's name opens /router/detail as a hardware member's does; its
    // connection and dial records are the row's 连接与记录 action. Never broken mid-name (390 px).
    render: (_: unknown, r: RouterItem) => (
      <Link to={routerDetailPath(r.router_name)} style={{ whiteSpace: 'nowrap' }}>
        {r.router_name}
      </Link>
    ),
  };
  const note = {
    title: routerMessages.memberColNote,
    dataIndex: 'note',
    key: 'note',
    render: (_: unknown, r: RouterItem) => <NoteCell r={r} editable={rights.edit} onEdit={() => act.note(r)} />,
  };
  const online = {
    title: routerMessages.memberColOnline,
    dataIndex: 'online_status',
    key: 'online_status',
    render: (v: number) => <Badge status={v === 1 ? 'success' : 'default'} text={v === 1 ? routerMessages.memberOnline : routerMessages.memberOffline} />,
  };
  const status = {
    title: routerMessages.memberColStatus,
    dataIndex: 'status',
    key: 'status',
    render: (v: number, r: RouterItem) => (
      <Switch
        checked={v === 1}
        checkedChildren={routerMessages.memberStatusNormal}
        unCheckedChildren={routerMessages.memberStatusOff}
        disabled={!rights.edit}
        loading={act.switching === r.router_name}
        aria-label={`${routerMessages.memberColStatus} ${r.router_name}`}
        onChange={() => act.toggleStatus(r)}
      />
    ),
  };
  const actions = {
    title: routerMessages.memberColActions,
    key: 'actions',
    fixed: 'right' as const,
    render: (_: unknown, r: RouterItem) => (
      <Space size={0} wrap={false}>
        <Button type="link" size="small" aria-label={`${diagnosisMessages.diagnosisAction} ${r.router_name}`} onClick={() => act.diagnose(r)}>
          {diagnosisMessages.diagnosisAction}
        </Button>
        {software && (
          <Button type="link" size="small" aria-label={`${routerMessages.memberActionRecords} ${r.router_name}`} onClick={() => act.detail(r)}>
            {routerMessages.memberActionRecords}
          </Button>
        )}
        {software && rights.edit && (
          // The phone and password actions under 更多: the column stays narrow enough that no other
          // column hides under it at 1280 px.
          <Dropdown
            trigger={['click']}
            menu={{
              items: [
                { key: 'phone', label: r.phone ? routerMessages.memberPhoneChangeTitle : routerMessages.memberPhoneBindTitle, onClick: () => act.phone(r) },
                ...(r.source !== LDAP_MEMBER_SOURCE ? [{ key: 'password', label: routerMessages.memberActionPassword, onClick: () => act.password(r) }] : []),
              ],
            }}
          >
            <Button type="link" size="small" aria-label={`${routerMessages.memberActionMore} ${r.router_name}`}>
              {routerMessages.memberActionMore}
              <DownOutlined />
            </Button>
          </Dropdown>
        )}
        {rights.delete && (
          <Button type="link" size="small" danger onClick={() => act.remove(r)}>
            {routerMessages.memberActionDelete}
          </Button>
        )}
      </Space>
    ),
  };
  const text = (title: string, key: keyof RouterItem) => ({ title, dataIndex: key, key, render: (v: string) => v || '-' });
  return [
    name,
    note,
    ...(software ? [text(routerMessages.memberColPhone, 'phone')] : []),
    online,
    ...(software ? [status, text(routerMessages.memberColOs, 'os')] : []),
    text(routerMessages.memberColVersion, 'version'),
    { title: routerMessages.memberColCreateTime, dataIndex: 'create_time', key: 'create_time', width: 170 },
    actions,
  ];
}
