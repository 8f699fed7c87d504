import { Flex, Typography } from 'antd';
import { LEGEND } from './topology';

/** The six legend items of spec 2 §2 under the graph: center, connection, POP, not logged in, online, offline. */
export function TopologyLegend() {
  return (
    <Flex gap={16} wrap justify="center" role="list">
      {LEGEND.map((item) => (
        <Flex key={item.label} gap={6} align="center" role="listitem">
          {item.line ? (
            <span style={{ width: 24, borderTop: `2px ${item.dashed ? 'dashed' : 'solid'} ${item.color}` }} />
          ) : (
            <span style={{ width: 12, height: 12, borderRadius: '50%', background: item.color }} />
          )}
          <Typography.Text type="secondary">{item.label}</Typography.Text>
        </Flex>
      ))}
    </Flex>
  );
}
