import { Layout, theme } from 'antd';
import type { ReactNode } from 'react';
import { FRAME } from '../../components/dimensions';

/** The sticky top bar every layout shares; `wide` gives the public pages their larger side padding. */
export function TopBar({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  const { token } = theme.useToken();
  return (
    <Layout.Header
      style={{
        position: 'sticky',
        top: 0,
        zIndex: 10,
        height: FRAME.headerHeight,
        lineHeight: `${FRAME.headerHeight}px`,
        paddingInline: wide ? token.paddingLG : token.padding,
        background: token.colorBgContainer,
        borderBlockEnd: `1px solid ${token.colorBorderSecondary}`,
      }}
    >
      {children}
    </Layout.Header>
  );
}
