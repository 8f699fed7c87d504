import { M } from '@hublink/contract';
import { Card, Typography } from 'antd';
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
 * the text rate in MB/s (spec 3 §4).
 */
export function TrafficChart({ title, points, field, color }: { title: string; points: readonly ChartPoint[]; field: 'down' | 'upload'; color: string }) {
  const { box, chart } = useEChart({ renderer: 'svg', height: HEIGHT });

  useEffect(() => {
    chart?.setOption({
      animation: false,
      grid: { left: 48, right: 16, top: 24, bottom: 28 },
      tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => `${Number(v).toFixed(2)} ${M.routerTrafficUnit}` },
      xAxis: { type: 'category', boundaryGap: false, data: points.map((p) => clockTime(p.time)) },
      yAxis: { type: 'value', name: M.routerTrafficUnit, min: 0 },
      series: [{ type: 'line', name: title, showSymbol: false, areaStyle: { opacity: 0.15 }, color, data: points.map((p) => p[field]) }],
    });
  }, [chart, points, field, title, color]);

  const last = points.at(-1);
  return (
    <Card size="small" title={title} extra={<Typography.Text strong>{rateText(last ? last[field] : 0)}</Typography.Text>}>
      <div ref={box} style={{ height: HEIGHT }} role="img" aria-label={title} />
    </Card>
  );
}
