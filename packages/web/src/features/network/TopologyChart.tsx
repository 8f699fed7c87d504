import { M, type NetworkLink, type NetworkMember } from '@hublink/contract';
import { GraphChart } from 'echarts/charts';
import { LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import { topologyOption } from './topology';
import { TopologyLegend } from './TopologyLegend';

echarts.use([GraphChart, TooltipComponent, LegendComponent, CanvasRenderer]);

const HEIGHT = 480;

/** The network's topology as an ECharts graph (spec 2 §2), redrawn as the polled status changes. */
export function TopologyChart({ members, links }: { members: readonly NetworkMember[]; links: readonly NetworkLink[] }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  // What the chart shows: a poll that changes nothing leaves the graph alone (setting it again would restart the layout).
  const drawn = useRef('');

  useEffect(() => {
    if (!box.current) return;
    const instance = echarts.init(box.current);
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(box.current);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
      drawn.current = '';
    };
  }, []);

  useEffect(() => {
    const option = topologyOption(members, links);
    const key = JSON.stringify(option.series);
    if (!chart.current || key === drawn.current) return;
    drawn.current = key;
    chart.current.setOption(option, { replaceMerge: ['series'] });
  }, [members, links]);

  return (
    <div>
      <div ref={box} style={{ width: '100%', height: HEIGHT }} role="img" aria-label={M.networkLinkTopology} />
      <TopologyLegend />
    </div>
  );
}
