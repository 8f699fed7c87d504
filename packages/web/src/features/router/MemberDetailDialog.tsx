import { fmt, M, type RouterItem } from '@hublink/contract';
import { Modal, Tabs } from 'antd';
import { DialRecords } from './DialRecords';
import { LoginRecords } from './LoginRecords';

/**
 * A software member's records (spec 3 §2): 登录记录 and 拨号记录. Software login records are for main
 * accounts only, so a sub-account sees the dial records alone. The device gateway writes both (an app's
 * hello, its tunnel sessions).
 */
export function MemberDetailDialog({ member, main, onClose }: { member: RouterItem | undefined; main: boolean; onClose: () => void }) {
  const name = member?.router_name ?? '';
  const items = [
    ...(main ? [{ key: 'login', label: M.memberLoginRecords, children: <LoginRecords routerName={name} /> }] : []),
    { key: 'dial', label: M.memberDialRecords, children: <DialRecords routerName={name} /> },
  ];
  return (
    <Modal title={fmt(M.memberDetailTitle, { name })} open={member !== undefined} onCancel={onClose} footer={null} width={960} destroyOnHidden>
      {member && <Tabs items={items} destroyOnHidden />}
    </Modal>
  );
}
