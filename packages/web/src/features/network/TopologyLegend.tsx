import { Flex, Typography } from 'antd';
import { LEGEND, type LegendItem } from './topology';

function Swatch({ item }: { item: LegendItem }) {
  if ('line' in item) {
    return <span className={`topology-swatch-line topology-line-${item.line.tone}${item.line.dashed ? ' topology-line-dashed' : ''}${item.line.thin ? ' topology-line-thin' : ''}`} aria-hidden />;
  }
  return <span className={`topology-swatch topology-node-${item.node}`} aria-hidden />;
}

/** The graph's one legend (spec 2 §2's six items, then the main and backup lines), drawn with the chart's shapes. */
export function TopologyLegend() {
  return (
    <Flex wrap justify="center" role="list" className="topology-legend">
      {LEGEND.map((item) => (
        <Flex key={item.label} gap={6} align="center" role="listitem">
          <Swatch item={item} />
          <Typography.Text type="secondary">{item.label}</Typography.Text>
        </Flex>
      ))}
    </Flex>
  );
}
