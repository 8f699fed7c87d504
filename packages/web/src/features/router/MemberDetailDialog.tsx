import { CM, fmt, type RouterItem, routerMessages } from '@hublink/contract';
import { Modal, Tabs } from 'antd';
import { ConnectionTab } from './ConnectionTab';
import { DialRecords } from './DialRecords';
import { LoginRecords } from './LoginRecords';

/**
 * A software member's connection (issue 30: profiles for standard clients) and records (spec 3 §2): 登录记录 and 拨号记录. Software login records are for main
 * accounts only, so a sub-account sees the dial records alone. The device gateway writes both (an app's
 * hello, its tunnel sessions).
 */
export function MemberDetailDialog({ member, main, edit, onClose }: { member: RouterItem | undefined; main: boolean; edit: boolean; onClose: () => void }) {
  const name = member?.router_name ?? '';
  const items = [
    // Its profiles carry the member's key: for those who may edit members.
    ...(edit ? [{ key: 'connection', label: CM.profileTab, children: <ConnectionTab routerName={name} /> }] : []),
    ...(main ? [{ key: 'login', label: routerMessages.memberLoginRecords, children: <LoginRecords routerName={name} /> }] : []),
    { key: 'dial', label: routerMessages.memberDialRecords, children: <DialRecords routerName={name} /> },
  ];
  return (
    <Modal title={fmt(routerMessages.memberDetailTitle, { name })} open={member !== undefined} onCancel={onClose} footer={null} width={960} destroyOnHidden>
      {member && <Tabs items={items} destroyOnHidden />}
    </Modal>
  );
}
