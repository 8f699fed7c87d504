import { Layout } from 'antd';
import { FRAME } from '../../components/dimensions';
import { SidebarContent } from './SidebarContent';

/**
 * The console's light, collapsible sidebar. The sider itself stretches to the page's full height (its
 * background and border never stop part way down a long page); its content sticks to the window.
 */
export function Sidebar({ collapsed, onBreakpoint }: { collapsed: boolean; onBreakpoint: (narrow: boolean) => void }) {
  return (
    <Layout.Sider
      theme="light"
      width={FRAME.siderWidth}
      collapsedWidth={FRAME.siderCollapsedWidth}
      collapsed={collapsed}
      trigger={null}
      breakpoint={FRAME.mobileBreakpoint}
      onBreakpoint={onBreakpoint}
      className="hl-sider"
    >
      <div className="hl-sider-inner">
        <SidebarContent collapsed={collapsed} />
      </div>
    </Layout.Sider>
  );
}
