import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TitleComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect } from 'react';
import { useEChart } from '../useEChart';

echarts.use([LineChart, BarChart, PieChart, GridComponent, LegendComponent, TitleComponent, TooltipComponent, CanvasRenderer]);

export type ChartOption = echarts.EChartsCoreOption;

/** One ECharts chart that follows its box's width and redraws when the option changes. */
export function Chart({ option, height = 320, label }: { option: ChartOption; height?: number; label: string }) {
  const { box, chart } = useEChart();

  useEffect(() => {
    chart?.setOption(option, { notMerge: true });
  }, [chart, option]);

  return <div ref={box} role="img" aria-label={label} style={{ width: '100%', height }} />;
}
