import { CustomerServiceOutlined, UserOutlined } from '@ant-design/icons';
import { type SupportDialogueEntry, ticketMessages } from '@hublink/contract';
import { Avatar, Empty, Flex, Tag, Typography, theme } from 'antd';
import { TicketImages } from './TicketImages';

/** The dialogue of a ticket, oldest first: the service's answers tinted and tagged, each entry with its images. */
export function Dialogue({ entries }: { entries: readonly SupportDialogueEntry[] }) {
  const { token } = theme.useToken();
  if (entries.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={ticketMessages.supportNoDialogue} />;
  return (
    <Flex vertical gap={12} role="list" aria-label={ticketMessages.supportDialogue}>
      {entries.map((e, i) => {
        const service = e.reply_type === 'service';
        return (
          <Flex
            key={i}
            role="listitem"
            gap={12}
            style={{ padding: token.paddingSM, borderRadius: token.borderRadiusLG, background: service ? token.colorInfoBg : token.colorFillQuaternary }}
          >
            <Avatar icon={service ? <CustomerServiceOutlined /> : <UserOutlined />} style={{ flex: 'none', background: service ? token.colorPrimary : token.colorTextQuaternary }} />
            <Flex vertical gap={6} style={{ minWidth: 0, flex: 1 }}>
              <Flex gap={8} align="center" wrap>
                <Typography.Text strong>{e.reply_name}</Typography.Text>
                {service && <Tag color="blue">{ticketMessages.supportServiceTag}</Tag>}
                <Typography.Text type="secondary">{e.reply_time}</Typography.Text>
              </Flex>
              <Typography.Paragraph style={{ margin: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{e.dialogue_content}</Typography.Paragraph>
              <TicketImages images={e.images} size={72} />
            </Flex>
          </Flex>
        );
      })}
    </Flex>
  );
}
