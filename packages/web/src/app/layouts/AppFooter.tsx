import { BM, fmt } from '@hublink/contract';
import { Flex, Layout, theme } from 'antd';
import { Link } from 'react-router';
import { useBrand } from '../../session/brand';

/** Where the filing number links to (the national ICP filing register). */
export const FILING_URL = 'https://beian.miit.gov.cn/';

/** Footer (spec 1 §2.6): the filing number always; copyright and legal links on own hosts only. */
export function AppFooter() {
  const brand = useBrand();
  const { token } = theme.useToken();
  const year = new Date().getFullYear();
  return (
    <Layout.Footer style={{ textAlign: 'center', background: 'transparent', padding: `${token.paddingLG}px ${token.padding}px` }}>
      <Flex vertical gap={4} align="center">
        {brand.own && (
          <Flex gap={16} wrap justify="center">
            <span style={{ color: token.colorTextSecondary }}>{fmt(BM.copyright, { year, name: brand.name })}</span>
            <Link to="/clause">{BM.clauseLink}</Link>
            <Link to="/privacy">{BM.privacyLink}</Link>
            {/* Help opens in a new tab, as the side menu's entry does (spec 3 §2.12). */}
            <Link to="/handbook" target="_blank" rel="noopener noreferrer">
              {BM.handbookLink}
            </Link>
          </Flex>
        )}
        {brand.filing && (
          <a href={FILING_URL} target="_blank" rel="noopener noreferrer" style={{ color: token.colorTextSecondary }}>
            {brand.filing}
          </a>
        )}
      </Flex>
    </Layout.Footer>
  );
}
