import { MenuFoldOutlined, MenuUnfoldOutlined, SettingOutlined } from '@ant-design/icons';
import { M } from '@hublink/contract';
import { Button, Flex, Layout, Tooltip } from 'antd';
import { Suspense, useState } from 'react';
import { Outlet } from 'react-router';
import { prefs } from '../../api/session';
import { PageLoading } from '../../components/PageLoading';
import { AppFooter } from './AppFooter';
import { FRAME } from './dimensions';
import { SettingsDrawer } from './SettingsDrawer';
import { Sidebar } from './Sidebar';
import { TopBar } from './TopBar';
import { TopBarActions } from './TopBarActions';
import { useEnsureUser } from './useEnsureUser';

/** The console frame: sidebar, top bar, page, footer, settings panel (spec 1 §2.6). */
export default function MainLayout() {
  useEnsureUser();
  const [opened, setOpenedState] = useState(() => prefs.sidebarOpened());
  const [settingsOpen, setSettingsOpen] = useState(false);

  const setOpened = (next: boolean) => {
    prefs.setSidebarOpened(next);
    setOpenedState(next);
  };
  const toggleLabel = opened ? M.collapseSidebar : M.expandSidebar;

  return (
    <Layout style={{ minHeight: '100vh' }}>
      {/* Narrow screens fold the sidebar without changing the saved choice; wide ones restore it. */}
      <Sidebar collapsed={!opened} onBreakpoint={(narrow) => setOpenedState(narrow ? false : prefs.sidebarOpened())} />
      <Layout>
        <TopBar>
          <Flex align="center" justify="space-between" style={{ height: '100%' }}>
            <Tooltip title={toggleLabel}>
              <Button
                type="text"
                aria-label={toggleLabel}
                aria-expanded={opened}
                icon={opened ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
                onClick={() => setOpened(!opened)}
              />
            </Tooltip>
            <Flex align="center" gap={4}>
              <TopBarActions />
              <Tooltip title={M.settingsTitle}>
                <Button type="text" aria-label={M.settingsTitle} icon={<SettingOutlined />} onClick={() => setSettingsOpen(true)} />
              </Tooltip>
            </Flex>
          </Flex>
        </TopBar>
        <Layout.Content style={{ padding: FRAME.contentPadding }}>
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
