import { routerMessages } from '@hublink/contract';
import { Segmented } from 'antd';
import { ROUTER_VIEWS, type RouterView } from './views';

const LABELS: Record<RouterView, string> = { detail: routerMessages.routerViewDetail, traffic: routerMessages.routerViewTraffic, status: routerMessages.routerViewStatus };
/** A software member's two views, named as a member's, not a device's. */
const SOFTWARE_LABELS: Record<RouterView, string> = { ...LABELS, detail: routerMessages.routerViewSoftwareDetail, status: routerMessages.routerViewSoftwareStatus };

/** The switch between the detail page, the second hardware view and the device status view (radio keys move it). */
export function ViewSwitch({ value, onChange, views = ROUTER_VIEWS, software = false }: { value: RouterView; onChange: (view: RouterView) => void; views?: readonly RouterView[]; software?: boolean }) {
  const labels = software ? SOFTWARE_LABELS : LABELS;
  return (
    <Segmented<RouterView>
      aria-label={routerMessages.routerViewLabel}
      value={value}
      options={views.map((v) => ({ value: v, label: labels[v] }))}
      onChange={onChange}
    />
  );
}
