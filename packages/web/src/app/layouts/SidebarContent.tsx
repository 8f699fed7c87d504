import { Link } from 'react-router';
import { Logo } from '../../components/Logo';
import { useBrand } from '../../session/brand';
import { HOME_PATH } from '../../session/paths';
import { SideMenu } from './SideMenu';

/** What the sidebar and the phone's menu drawer both show: the logo (to '/') above the side menu. */
export function SidebarContent({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  const brand = useBrand();
  return (
    <>
      <Link to={HOME_PATH} aria-label={brand.name} className={collapsed ? 'hl-sider-logo hl-sider-logo-collapsed' : 'hl-sider-logo'} onClick={onNavigate}>
        <Logo variant={brand.logo} name={brand.name} compact={collapsed} />
      </Link>
      <SideMenu collapsed={collapsed} onNavigate={onNavigate} />
    </>
  );
}
