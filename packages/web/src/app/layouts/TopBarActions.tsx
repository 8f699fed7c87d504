import { CustomerServiceOutlined, DownloadOutlined } from '@ant-design/icons';
import { M } from '@hublink/contract';
import { Button, Flex } from 'antd';
import { Link, useNavigate } from 'react-router';
import { session } from '../../api/session';
import { HOME_PATH, LOGIN_PATH } from '../paths';
import { useUser } from '../user';
import { UserMenu } from './UserMenu';

export const DOWNLOAD_PATH = '/download';
export const TICKETS_PATH = '/ticket/lists';

/** Right side of every top bar (spec 1 §2.6): download, tickets, then console + user menu or login. */
export function TopBarActions() {
  const navigate = useNavigate();
  useUser(); // re-render when the session starts or ends
  const signedIn = Boolean(session.token());
  return (
    <Flex align="center" gap={4} wrap={false}>
      <Link to={DOWNLOAD_PATH} className="hl-topbar-link">
        <DownloadOutlined /> {M.navDownload}
      </Link>
      <Link to={TICKETS_PATH} className="hl-topbar-link">
        <CustomerServiceOutlined /> {M.navTickets}
      </Link>
      {signedIn ? (
        <>
          <Button type="primary" ghost onClick={() => void navigate(HOME_PATH)} style={{ marginInline: 8 }}>
            {M.navConsole}
          </Button>
          <UserMenu />
        </>
      ) : (
        <Button type="primary" onClick={() => void navigate(LOGIN_PATH)} style={{ marginInlineStart: 8 }}>
          {M.navLogin}
        </Button>
      )}
    </Flex>
  );
}
