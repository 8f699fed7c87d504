import { Flex, Layout, theme } from 'antd';
import { Link } from 'react-router';
import { Logo } from '../../components/Logo';
import { useBrand } from '../brand';
import { HOME_PATH } from '../paths';
import { FRAME } from './dimensions';
import { TopBarActions } from './TopBarActions';

/** Top bar of the public layouts: logo to '/', then the shared actions. */
export function PublicHeader() {
  const brand = useBrand();
  const { token } = theme.useToken();
  return (
    <Layout.Header
      style={{
        position: 'sticky',
        top: 0,
        zIndex: 10,
        height: FRAME.headerHeight,
        lineHeight: `${FRAME.headerHeight}px`,
        paddingInline: token.paddingLG,
        background: token.colorBgContainer,
        borderBlockEnd: `1px solid ${token.colorBorderSecondary}`,
      }}
    >
      <Flex align="center" justify="space-between" style={{ height: '100%', maxWidth: FRAME.publicMaxWidth, margin: '0 auto' }}>
        <Link to={HOME_PATH} aria-label={brand.name} style={{ display: 'flex', alignItems: 'center' }}>
          <Logo variant={brand.logo} name={brand.name} />
        </Link>
        <TopBarActions />
      </Flex>
    </Layout.Header>
  );
}
