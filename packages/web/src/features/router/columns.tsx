import { DownOutlined, EditOutlined } from '@ant-design/icons';
import { LDAP_MEMBER_SOURCE, M, ROUTER_TYPE, type RouterItem, type RouterType } from '@hublink/contract';
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
      {editable && <Button type="text" size="small" icon={<EditOutlined />} aria-label={`${M.memberActionNote} ${r.router_name}`} onClick={onEdit} />}
    </Space>
  );
}

/** The member table's columns for one tab (spec 3 §2), with only the actions the user's role allows. */
export function memberColumns(type: RouterType, rights: MemberRights, act: RowActions): TableColumnsType<RouterItem> {
  const software = type === ROUTER_TYPE.software;
  const name = {
    title: software ? M.memberColAccount : M.memberColDevice,
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
    title: M.memberColNote,
    dataIndex: 'note',
    key: 'note',
    render: (_: unknown, r: RouterItem) => <NoteCell r={r} editable={rights.edit} onEdit={() => act.note(r)} />,
  };
  const online = {
    title: M.memberColOnline,
    dataIndex: 'online_status',
    key: 'online_status',
    render: (v: number) => <Badge status={v === 1 ? 'success' : 'default'} text={v === 1 ? M.memberOnline : M.memberOffline} />,
  };
  const status = {
    title: M.memberColStatus,
    dataIndex: 'status',
    key: 'status',
    render: (v: number, r: RouterItem) => (
      <Switch
        checked={v === 1}
        checkedChildren={M.memberStatusNormal}
        unCheckedChildren={M.memberStatusOff}
        disabled={!rights.edit}
        loading={act.switching === r.router_name}
        aria-label={`${M.memberColStatus} ${r.router_name}`}
        onChange={() => act.toggleStatus(r)}
      />
    ),
  };
  const actions = {
    title: M.memberColActions,
    key: 'actions',
    fixed: 'right' as const,
    render: (_: unknown, r: RouterItem) => (
      <Space size={0} wrap={false}>
        <Button type="link" size="small" aria-label={`${M.diagnosisAction} ${r.router_name}`} onClick={() => act.diagnose(r)}>
          {M.diagnosisAction}
        </Button>
        {software && (
          <Button type="link" size="small" aria-label={`${M.memberActionRecords} ${r.router_name}`} onClick={() => act.detail(r)}>
            {M.memberActionRecords}
          </Button>
        )}
        {software && rights.edit && (
          // The phone and password actions under 更多: the column stays narrow enough that no other
          // column hides under it at 1280 px.
          <Dropdown
            trigger={['click']}
            menu={{
              items: [
                { key: 'phone', label: r.phone ? M.memberPhoneChangeTitle : M.memberPhoneBindTitle, onClick: () => act.phone(r) },
                ...(r.source !== LDAP_MEMBER_SOURCE ? [{ key: 'password', label: M.memberActionPassword, onClick: () => act.password(r) }] : []),
              ],
            }}
          >
            <Button type="link" size="small" aria-label={`${M.memberActionMore} ${r.router_name}`}>
              {M.memberActionMore}
              <DownOutlined />
            </Button>
          </Dropdown>
        )}
        {rights.delete && (
          <Button type="link" size="small" danger onClick={() => act.remove(r)}>
            {M.memberActionDelete}
          </Button>
        )}
      </Space>
    ),
  };
  const text = (title: string, key: keyof RouterItem) => ({ title, dataIndex: key, key, render: (v: string) => v || '-' });
  return [
    name,
    note,
    ...(software ? [text(M.memberColPhone, 'phone')] : []),
    online,
    ...(software ? [status, text(M.memberColOs, 'os')] : []),
    text(M.memberColVersion, 'version'),
    { title: M.memberColCreateTime, dataIndex: 'create_time', key: 'create_time', width: 170 },
    actions,
  ];
}
