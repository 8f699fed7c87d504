import { routerMessages } from '@hublink/contract';
import { LoadingOutlined } from '@ant-design/icons';
import { Card, Flex, Typography } from 'antd';
import { LineChart } from 'echarts/charts';
import { GridComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect } from 'react';
import { useEChart } from '../../../components/useEChart';
import { clockTime, rateText, type ChartPoint } from './traffic';

// SVG: a few small lines redraw cheaply, stay sharp at any zoom, and need no canvas (jsdom has none).
echarts.use([LineChart, GridComponent, TooltipComponent, SVGRenderer]);

const HEIGHT = 200;

/**
 * One direction of one interface: the latest points as a line in Mbit/s, and the latest value as
 * the text rate in MB/s (spec 3 §4). Before the first sample there is no rate and no empty axes: a
 * waiting notice while the stream may still bring one (`waiting`), a dash once it cannot.
 */
export function TrafficChart({ title, points, field, color, waiting }: { title: string; points: readonly ChartPoint[]; field: 'down' | 'upload'; color: string; waiting: boolean }) {
  const { box, chart } = useEChart({ renderer: 'svg', height: HEIGHT });
  const empty = points.length === 0;

  useEffect(() => {
    if (empty) {
      chart?.clear();
      return;
    }
    chart?.setOption({
      animation: false,
      grid: { left: 48, right: 16, top: 24, bottom: 28 },
      tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => `${Number(v).toFixed(2)} ${routerMessages.routerTrafficUnit}` },
      xAxis: { type: 'category', boundaryGap: false, data: points.map((p) => clockTime(p.time)) },
      yAxis: { type: 'value', name: routerMessages.routerTrafficUnit, min: 0 },
      series: [{ type: 'line', name: title, showSymbol: false, areaStyle: { opacity: 0.15 }, color, data: points.map((p) => p[field]) }],
    });
  }, [chart, points, field, title, color, empty]);

  const last = points.at(-1);
  return (
    <Card size="small" title={title} extra={last ? <Typography.Text strong>{rateText(last[field])}</Typography.Text> : waiting ? null : <Typography.Text type="secondary">-</Typography.Text>}>
      <div style={{ position: 'relative' }}>
        <div ref={box} style={{ height: HEIGHT }} role="img" aria-label={title} />
        {empty && waiting && (
          <Flex role="status" gap={8} align="center" justify="center" style={{ position: 'absolute', inset: 0 }}>
            <LoadingOutlined />
            <Typography.Text type="secondary">{routerMessages.routerTrafficWaiting}</Typography.Text>
          </Flex>
        )}
      </div>
    </Card>
  );
}
