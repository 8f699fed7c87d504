import { type NetworkLink, type NetworkMember, networkMessages } from '@hublink/contract';
import { Typography } from 'antd';
import { GraphChart } from 'echarts/charts';
import { TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef, useState } from 'react';
import { useEChart } from '../../components/useEChart';
import { frameOf, keepRoam, topologyView, type Roam } from './topology';
import { TopologyLegend } from './TopologyLegend';
import { MIN_HEIGHT } from './topologyLayout';
import './topology.css';

echarts.use([GraphChart, TooltipComponent, CanvasRenderer]);

/** The network's topology as an ECharts graph (spec 2 §2), laid out for the card's width and redrawn as the polled status changes. */
export function TopologyChart({ members, links }: { members: readonly NetworkMember[]; links: readonly NetworkLink[] }) {
  const [width, setWidth] = useState(0);
  const [height, setHeight] = useState(MIN_HEIGHT);
  const { box, chart } = useEChart({ onResize: setWidth });
  // What the chart shows: a poll that changes nothing leaves the graph alone, and one that changes
  // only states (the same frame) keeps the user's zoom and pan. Both belong to one chart instance.
  const drawn = useRef({ chart: null as typeof chart, key: '', frame: '' });

  useEffect(() => {
    if (!chart || width === 0) return;
    const view = topologyView(members, links, width);
    setHeight(view.height);
    const key = JSON.stringify([view.height, view.option.series]);
    if (drawn.current.chart !== chart) drawn.current = { chart, key: '', frame: '' };
    if (key === drawn.current.key) return;
    const nextFrame = frameOf(view);
    const roam = nextFrame === drawn.current.frame ? (chart.getOption()?.series as Roam[] | undefined)?.[0] : undefined;
    drawn.current = { chart, key, frame: nextFrame };
    chart.resize({ height: view.height });
    chart.setOption(keepRoam(view.option, roam), { replaceMerge: ['series'] });
  }, [chart, members, links, width]);

  return (
    <div className="topology">
      <div ref={box} className="topology-canvas" style={{ height }} role="img" aria-label={networkMessages.networkLinkTopology} />
      <TopologyLegend />
      <Typography.Text type="secondary" className="topology-hint">
        {networkMessages.networkTopologyHint}
      </Typography.Text>
    </div>
  );
}
