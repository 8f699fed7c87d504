import { Card, Flex, Typography, theme } from 'antd';
import type { ReactNode } from 'react';

const CARD_WIDTH = 440;

/**
 * The centred card the public sign-in pages (register, recovery) sit in. Its width is fixed (narrower
 * screens shrink it), not its content's: the form and the success screen after it keep one width.
 */
export function AuthCard({ title, extra, width = CARD_WIDTH, children }: { title: ReactNode; extra?: ReactNode; width?: number; children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <Flex justify="center" align="flex-start" style={{ padding: '48px 16px' }}>
      <Card style={{ width, maxWidth: '100%' }} styles={{ body: { padding: '32px 32px 24px' } }}>
        <Flex justify="space-between" align="baseline" style={{ marginBottom: 24 }}>
          {/* The page's <h1>, at the size of a card title. */}
          <Typography.Title level={1} style={{ margin: 0, fontSize: token.fontSizeHeading3, lineHeight: token.lineHeightHeading3 }}>
            {title}
          </Typography.Title>
          {extra}
        </Flex>
        {children}
      </Card>
    </Flex>
  );
}
