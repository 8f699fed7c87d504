import { routerMessages } from '@hublink/contract';
import { Segmented } from 'antd';
import { ROUTER_VIEWS, type RouterView } from './views';

const LABELS: Record<RouterView, string> = { detail: routerMessages.routerViewDetail, traffic: routerMessages.routerViewTraffic, status: routerMessages.routerViewStatus };

/** The switch between the detail page, the second hardware view and the device status view (radio keys move it). */
export function ViewSwitch({ value, onChange, views = ROUTER_VIEWS }: { value: RouterView; onChange: (view: RouterView) => void; views?: readonly RouterView[] }) {
  return (
    <Segmented<RouterView>
      aria-label={routerMessages.routerViewLabel}
      value={value}
      options={views.map((v) => ({ value: v, label: LABELS[v] }))}
      onChange={onChange}
    />
  );
}
