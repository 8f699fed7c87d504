import * as echarts from 'echarts/core';
import { useEffect, useRef, useState } from 'react';

export interface EChartBox {
  /** Give it to the element the chart draws in. */
  box: React.RefObject<HTMLDivElement | null>;
  /** The chart once the element is there (null before, and after unmount). */
  chart: echarts.ECharts | null;
}

/**
 * An ECharts instance in an element of the page: made when the element mounts, resized whenever the
 * element's box changes (onResize hears the new width first), disposed when it unmounts. The chart
 * types and renderers it uses are registered by the caller (echarts.use), so each page loads only its own.
 */
export function useEChart(opts: { renderer?: 'canvas' | 'svg'; height?: number; onResize?: (width: number) => void } = {}): EChartBox {
  const box = useRef<HTMLDivElement>(null);
  const [chart, setChart] = useState<echarts.ECharts | null>(null);
  const onResize = useRef(opts.onResize);
  onResize.current = opts.onResize;
  const { renderer, height } = opts;

  useEffect(() => {
    if (!box.current) return;
    const instance = echarts.init(box.current, undefined, { ...(renderer ? { renderer } : {}), ...(height ? { height } : {}) });
    setChart(instance);
    const observer = new ResizeObserver(([entry]) => {
      onResize.current?.(Math.round(entry!.contentRect.width));
      instance.resize();
    });
    observer.observe(box.current);
    return () => {
      observer.disconnect();
      instance.dispose();
      setChart(null);
    };
  }, [renderer, height]);

  return { box, chart };
}
