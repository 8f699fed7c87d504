import { M, type NetworkLink, type NetworkMember } from '@hublink/contract';
import { Typography } from 'antd';
import { GraphChart } from 'echarts/charts';
import { TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef, useState } from 'react';
import { frameOf, keepRoam, topologyView, type Roam } from './topology';
import { TopologyLegend } from './TopologyLegend';
import { MIN_HEIGHT } from './topologyLayout';
import './topology.css';

echarts.use([GraphChart, TooltipComponent, CanvasRenderer]);

/** The network's topology as an ECharts graph (spec 2 §2), laid out for the card's width and redrawn as the polled status changes. */
export function TopologyChart({ members, links }: { members: readonly NetworkMember[]; links: readonly NetworkLink[] }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const [width, setWidth] = useState(0);
  const [height, setHeight] = useState(MIN_HEIGHT);
  // What the chart shows: a poll that changes nothing leaves the graph alone, and one that changes
  // only states (the same frame) keeps the user's zoom and pan.
  const drawn = useRef('');
  const frame = useRef('');

  useEffect(() => {
    if (!box.current) return;
    const instance = echarts.init(box.current);
    chart.current = instance;
    const observer = new ResizeObserver(([entry]) => {
      setWidth(Math.round(entry!.contentRect.width));
      instance.resize();
    });
    observer.observe(box.current);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
      drawn.current = '';
      frame.current = '';
    };
  }, []);

  useEffect(() => {
    if (!chart.current || width === 0) return;
    const view = topologyView(members, links, width);
    setHeight(view.height);
    const key = JSON.stringify([view.height, view.option.series]);
    if (key === drawn.current) return;
    drawn.current = key;
    const nextFrame = frameOf(view);
    const roam = nextFrame === frame.current ? (chart.current.getOption()?.series as Roam[] | undefined)?.[0] : undefined;
    frame.current = nextFrame;
    chart.current.resize({ height: view.height });
    chart.current.setOption(keepRoam(view.option, roam), { replaceMerge: ['series'] });
  }, [members, links, width]);

  return (
    <div className="topology">
      <div ref={box} className="topology-canvas" style={{ height }} role="img" aria-label={M.networkLinkTopology} />
      <TopologyLegend />
      <Typography.Text type="secondary" className="topology-hint">
        {M.networkTopologyHint}
      </Typography.Text>
    </div>
  );
}
