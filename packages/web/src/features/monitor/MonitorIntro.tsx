import { AlertOutlined, ApiOutlined, MailOutlined, MessageOutlined } from '@ant-design/icons';
import { BM, monitorEnable, monitorMessages } from '@hublink/contract';
import { Button, Flex, List, Popconfirm, Tooltip, Typography, theme } from 'antd';
import { useMonitorMutation } from './api';
import { useMonitorRights } from './rights';

/** The panel shown while monitoring is off: what it does, and the start button (confirmed). */
export function MonitorIntro() {
  const { token } = theme.useToken();
  const rights = useMonitorRights();
  const start = useMonitorMutation(monitorEnable);
  const button = (
    <Button type="primary" size="large" icon={<AlertOutlined />} disabled={!rights.enable} loading={start.isPending}>
      {monitorMessages.monitorStart}
    </Button>
  );
  return (
    <Flex vertical align="center" gap={token.marginLG} style={{ padding: `${token.paddingLG}px 0`, textAlign: 'center' }}>
      <AlertOutlined style={{ fontSize: 56, color: token.colorPrimary }} aria-hidden />
      <div>
        <Typography.Title level={4}>{monitorMessages.monitorIntroTitle}</Typography.Title>
        <Typography.Paragraph type="secondary" style={{ maxWidth: 560, margin: '0 auto' }}>
          {monitorMessages.monitorIntroText}
        </Typography.Paragraph>
      </div>
      <List
        size="small"
        style={{ maxWidth: 560, width: '100%', textAlign: 'start' }}
        dataSource={[
          { icon: <MessageOutlined />, text: monitorMessages.monitorIntroPortal },
          { icon: <MailOutlined />, text: monitorMessages.monitorIntroEmail },
          { icon: <ApiOutlined />, text: monitorMessages.monitorIntroWebhook },
        ]}
        renderItem={(item) => (
          <List.Item>
            <Flex gap={token.marginSM} align="baseline">
              <span style={{ color: token.colorPrimary }}>{item.icon}</span>
              <span>{item.text}</span>
            </Flex>
          </List.Item>
        )}
      />
      {rights.enable ? (
        <Popconfirm title={monitorMessages.monitorStartConfirm} onConfirm={() => start.mutateAsync(undefined)}>
          {button}
        </Popconfirm>
      ) : (
        <Tooltip title={BM.deniedPermission}>{button}</Tooltip>
      )}
    </Flex>
  );
}
