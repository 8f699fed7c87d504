import { MenuFoldOutlined, MenuOutlined, MenuUnfoldOutlined, SettingOutlined } from '@ant-design/icons';
import { BM } from '@hublink/contract';
import { Button, Flex, Layout, Tooltip } from 'antd';
import { Suspense, useState } from 'react';
import { Outlet } from 'react-router';
import { prefs } from '../../api/session';
import { PageLoading } from '../../components/PageLoading';
import { AppFooter } from './AppFooter';
import { FRAME } from '../../components/dimensions';
import { MenuDrawer } from './MenuDrawer';
import { SettingsDrawer } from './SettingsDrawer';
import { Sidebar } from './Sidebar';
import { TopBar } from './TopBar';
import { TopBarActions, userMenuLoaded } from './TopBarActions';
import { useEnsureUser } from './useEnsureUser';
import { usePhone } from '../../components/usePhone';

/** Settles when the frame's own lazy parts are here (the router waits for them with the frame). */
export const frameLoaded = userMenuLoaded;

/** The console frame: sidebar, top bar, page, footer, settings panel (spec 1 §2.6). */
export default function MainLayout() {
  useEnsureUser();
  const [opened, setOpenedState] = useState(() => prefs.sidebarOpened());
  const [settingsOpen, setSettingsOpen] = useState(false);

  const setOpened = (next: boolean) => {
    prefs.setSidebarOpened(next);
    setOpenedState(next);
  };
  const phone = usePhone();
  const [drawerOpen, setDrawerOpen] = useState(false);
  const toggleLabel = opened ? BM.collapseSidebar : BM.expandSidebar;
  const menuButton = phone ? (
    <Button type="text" aria-label={BM.openMenu} aria-expanded={drawerOpen} icon={<MenuOutlined />} onClick={() => setDrawerOpen(true)} />
  ) : (
    <Tooltip title={toggleLabel}>
      <Button
        type="text"
        aria-label={toggleLabel}
        aria-expanded={opened}
        icon={opened ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
        onClick={() => setOpened(!opened)}
      />
    </Tooltip>
  );

  return (
    <Layout style={{ minHeight: '100vh' }}>
      {phone ? (
        <MenuDrawer open={drawerOpen} onClose={() => setDrawerOpen(false)} />
      ) : (
        // Narrow screens fold the sidebar without changing the saved choice; wide ones restore it.
        <Sidebar collapsed={!opened} onBreakpoint={(narrow) => setOpenedState(narrow ? false : prefs.sidebarOpened())} />
      )}
      <Layout className="hl-main">
        <TopBar>
          <Flex align="center" justify="space-between" gap={8} style={{ height: '100%' }}>
            {menuButton}
            <Flex align="center" gap={4}>
              <TopBarActions />
              <Tooltip title={BM.settingsTitle}>
                <Button type="text" aria-label={BM.settingsTitle} icon={<SettingOutlined />} onClick={() => setSettingsOpen(true)} />
              </Tooltip>
            </Flex>
          </Flex>
        </TopBar>
        <Layout.Content style={{ padding: phone ? FRAME.phoneContentPadding : FRAME.contentPadding }}>
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
        <AppFooter />
      </Layout>
      <SettingsDrawer
        open={settingsOpen}
        onClose={() => setSettingsOpen(false)}
        sidebarOpened={opened}
        onSidebarOpened={setOpened}
      />
    </Layout>
  );
}
