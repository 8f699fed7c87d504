import { CustomerServiceOutlined, DownloadOutlined } from '@ant-design/icons';
import { BM } from '@hublink/contract';
import { Button, Flex } from 'antd';
import { Suspense, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { session } from '../../api/session';
import { HOME_PATH, LOGIN_PATH } from '../../session/paths';
import { lazy } from '../lazyPage';
import { useUser } from '../../session/user';
import { usePhone } from '../../components/usePhone';

// Only a signed-in user has the menu: the sign-in page does not load it.
const UserMenu = lazy(() => import('./UserMenu'));

/** Settles once the user menu's code is here: the console's frame counts as loaded only with it (app/router.tsx). */
export const userMenuLoaded = () => UserMenu.ready();

export const DOWNLOAD_PATH = '/download';
export const TICKETS_PATH = '/ticket/lists';

/** A link of the top bar; on a phone only its icon, named for screen readers and by the browser's own tooltip. */
function TopBarLink({ to, icon, label, iconOnly }: { to: string; icon: ReactNode; label: string; iconOnly: boolean }) {
  if (!iconOnly) {
    return (
      <Link to={to} className="hl-topbar-link">
        {icon} {label}
      </Link>
    );
  }
  return (
    <Link to={to} className="hl-topbar-link hl-topbar-link-icon" aria-label={label} title={label}>
      {icon}
    </Link>
  );
}

/** Right side of every top bar (spec 1 §2.6): download, tickets, then console + user menu or login. */
export function TopBarActions() {
  const navigate = useNavigate();
  useUser(); // re-render when the session starts or ends
  const signedIn = Boolean(session.token());
  const phone = usePhone();
  return (
    <Flex align="center" gap={phone ? 0 : 4} wrap={false}>
      <TopBarLink to={DOWNLOAD_PATH} icon={<DownloadOutlined />} label={BM.navDownload} iconOnly={phone} />
      <TopBarLink to={TICKETS_PATH} icon={<CustomerServiceOutlined />} label={BM.navTickets} iconOnly={phone} />
      {signedIn ? (
        <>
          <Button type="primary" ghost onClick={() => void navigate(HOME_PATH)} style={{ marginInline: phone ? 4 : 8 }}>
            {BM.navConsole}
          </Button>
          <Suspense fallback={null}>
            <UserMenu />
          </Suspense>
        </>
      ) : (
        <Button type="primary" onClick={() => void navigate(LOGIN_PATH)} style={{ marginInlineStart: 8 }}>
          {BM.navLogin}
        </Button>
      )}
    </Flex>
  );
}
