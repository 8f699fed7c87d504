import { DownOutlined, KeyOutlined, LogoutOutlined, MailOutlined, UserOutlined } from '@ant-design/icons';
import { BM } from '@hublink/contract';
import { App, Avatar, Badge, Button, Dropdown, Flex, theme, type MenuProps } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useSignOut } from '../signOut';
import { useUser } from '../../session/user';
import { ChangePasswordDialog } from './ChangePasswordDialog';
import { usePhone } from '../../components/usePhone';

const MESSAGES_PATH = '/account/message';

/** The signed-in user's menu in the top bar (spec 1 §2.6): messages, password (sub-accounts), log out. */
export default function UserMenu() {
  const user = useUser();
  const navigate = useNavigate();
  const signOut = useSignOut();
  const { modal } = App.useApp();
  const { token } = theme.useToken();
  const [changingPassword, setChangingPassword] = useState(false);
  const unread = user?.message_count ?? 0;
  const phone = usePhone();
  const name = user?.nickname || user?.username || '…';

  const confirmLogout = () =>
    modal.confirm({
      title: BM.confirmLogout,
      icon: <LogoutOutlined />,
      onOk: () => signOut(),
    });

  const items: MenuProps['items'] = [
    {
      key: 'messages',
      icon: <MailOutlined />,
      label: (
        <Flex justify="space-between" align="center" gap={16}>
          {BM.myMessages}
          <Badge count={unread} size="small" />
        </Flex>
      ),
    },
    ...(user?.ram === 1 ? [{ key: 'password', icon: <KeyOutlined />, label: BM.changePassword }] : []),
    { type: 'divider' as const },
    { key: 'logout', icon: <LogoutOutlined />, label: BM.logoutAction },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'messages') void navigate(MESSAGES_PATH);
    else if (key === 'password') setChangingPassword(true);
    else if (key === 'logout') confirmLogout();
  };

  return (
    <>
      <Dropdown menu={{ items, onClick }} trigger={['hover', 'click']} placement="bottomRight">
        <Button type="text" aria-haspopup="menu" aria-label={phone ? name : undefined} style={{ height: 'auto', paddingInline: phone ? 4 : 8 }}>
          <Flex align="center" gap={8}>
            <Badge dot={unread > 0} offset={[-2, 2]}>
              <Avatar size="small" icon={<UserOutlined />} style={{ backgroundColor: token.colorPrimary }} />
            </Badge>
            {!phone && (
              <>
                <span className="hl-user-name" title={name}>
                  {name}
                </span>
                <DownOutlined style={{ fontSize: 10 }} />
              </>
            )}
          </Flex>
        </Button>
      </Dropdown>
      {user?.ram === 1 && <ChangePasswordDialog open={changingPassword} onClose={() => setChangingPassword(false)} />}
    </>
  );
}
