import { M } from '@hublink/contract';
import { Segmented } from 'antd';
import { ROUTER_VIEWS, type RouterView } from './views';

const LABELS: Record<RouterView, string> = { detail: M.routerViewDetail, traffic: M.routerViewTraffic, status: M.routerViewStatus };

/** The switch between the detail page, the second hardware view and the device status view (radio keys move it). */
export function ViewSwitch({ value, onChange, views = ROUTER_VIEWS }: { value: RouterView; onChange: (view: RouterView) => void; views?: readonly RouterView[] }) {
  return (
    <Segmented<RouterView>
      aria-label={M.routerViewLabel}
      value={value}
      options={views.map((v) => ({ value: v, label: LABELS[v] }))}
      onChange={onChange}
    />
  );
}
