import { BM } from '@hublink/contract';
import { Drawer } from 'antd';
import { FRAME } from '../../components/dimensions';
import { SidebarContent } from './SidebarContent';

/** The side menu on a phone: a drawer from the left, closed once the user picks a page. */
export function MenuDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Drawer
      placement="left"
      open={open}
      onClose={onClose}
      size={FRAME.siderWidth}
      closable={false}
      aria-label={BM.sideMenu}
      classNames={{ body: 'hl-menu-drawer-body' }}
    >
      <SidebarContent collapsed={false} onNavigate={onClose} />
    </Drawer>
  );
}
