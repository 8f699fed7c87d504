import { Layout, theme } from 'antd';
import { Link } from 'react-router';
import { Logo } from '../../components/Logo';
import { useBrand } from '../brand';
import { HOME_PATH } from '../paths';
import { FRAME } from './dimensions';
import { SideMenu } from './SideMenu';

/** The console's light, collapsible sidebar: the logo (to '/') above the side menu. */
export function Sidebar({ collapsed, onBreakpoint }: { collapsed: boolean; onBreakpoint: (narrow: boolean) => void }) {
  const brand = useBrand();
  const { token } = theme.useToken();
  return (
    <Layout.Sider
      theme="light"
      width={FRAME.siderWidth}
      collapsedWidth={FRAME.siderCollapsedWidth}
      collapsed={collapsed}
      trigger={null}
      breakpoint={FRAME.mobileBreakpoint}
      onBreakpoint={onBreakpoint}
      style={{
        borderInlineEnd: `1px solid ${token.colorBorderSecondary}`,
        position: 'sticky',
        top: 0,
        height: '100vh',
        overflow: 'auto',
      }}
    >
      <Link
        to={HOME_PATH}
        aria-label={brand.name}
        style={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: collapsed ? 'center' : 'flex-start',
          height: FRAME.headerHeight,
          paddingInline: collapsed ? 0 : token.paddingLG,
          borderBlockEnd: `1px solid ${token.colorBorderSecondary}`,
        }}
      >
        <Logo variant={brand.logo} name={brand.name} compact={collapsed} />
      </Link>
      <SideMenu collapsed={collapsed} />
    </Layout.Sider>
  );
}
