import { Flex } from 'antd';
import { Link } from 'react-router';
import { Logo } from '../../components/Logo';
import { useBrand } from '../../session/brand';
import { HOME_PATH } from '../../session/paths';
import { FRAME } from '../../components/dimensions';
import { TopBar } from './TopBar';
import { TopBarActions } from './TopBarActions';

/** Top bar of the public layouts: logo to '/', then the shared actions. */
export function PublicHeader() {
  const brand = useBrand();
  return (
    <TopBar wide>
      <Flex align="center" justify="space-between" style={{ height: '100%', maxWidth: FRAME.publicMaxWidth, margin: '0 auto' }}>
        <Link to={HOME_PATH} aria-label={brand.name} style={{ display: 'flex', alignItems: 'center' }}>
          <Logo variant={brand.logo} name={brand.name} />
        </Link>
        <TopBarActions />
      </Flex>
    </TopBar>
  );
}
