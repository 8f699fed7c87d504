import { networkTicketMessages, type TicketConfig } from '@hublink/contract';
import { Checkbox, Form, Radio, Slider } from 'antd';
import { toast } from '../../api/notify';
import { bandwidthLabel, yearsLabel } from './labels';

export interface ConfigValues {
  regions: string[];
  years: number;
  bandwidth: number;
}

/** The bandwidth marks (spec 2 §9: 1, 50, 100, 150, 200 Mbps) within the server's bounds; the unit is in the label, so they fit a phone. */
const marksOf = (choices: readonly number[], min: number, max: number) => Object.fromEntries(choices.filter((v) => v >= min && v <= max).map((v) => [v, String(v)]));

/**
 * Step 1: the POP regions (a checkbox group that keeps at least one: unchecking the last warns and
 * keeps it), the validity in years and the bandwidth slider.
 */
export function ConfigStep({
  config,
  choices,
  values,
  onChange,
}: {
  config: TicketConfig['ticket'];
  choices: readonly number[];
  values: ConfigValues;
  onChange: (v: ConfigValues) => void;
}) {
  const order = config.pop.map((p) => p.value);
  return (
    <Form layout="vertical" style={{ maxWidth: 640 }}>
      <Form.Item label={networkTicketMessages.ticketDetailPop} required>
        <Checkbox.Group
          aria-label={networkTicketMessages.ticketDetailPop}
          value={values.regions}
          options={config.pop.map((p) => ({ value: p.value, label: p.name }))}
          onChange={(picked) => {
            if (picked.length === 0) {
              toast.warning(networkTicketMessages.ticketPopRequired);
              return;
            }
            onChange({ ...values, regions: order.filter((r) => picked.includes(r)) });
          }}
        />
      </Form.Item>
      <Form.Item label={networkTicketMessages.ticketDetailExpired} required>
        <Radio.Group
          aria-label={networkTicketMessages.ticketDetailExpired}
          value={values.years}
          onChange={(e) => onChange({ ...values, years: e.target.value as number })}
          options={config.expired_time.map((e) => ({ value: e.value, label: yearsLabel(e.value) }))}
        />
      </Form.Item>
      <Form.Item label={`${networkTicketMessages.ticketDetailBandwidth} ${bandwidthLabel(values.bandwidth)}`} required>
        <Slider
          aria-label={networkTicketMessages.ticketDetailBandwidth}
          min={config.bandwidth.min}
          max={config.bandwidth.max}
          step={null}
          marks={marksOf(choices, config.bandwidth.min, config.bandwidth.max)}
          value={values.bandwidth}
          onChange={(v) => onChange({ ...values, bandwidth: v })}
          tooltip={{ formatter: (v) => (v === undefined ? '' : bandwidthLabel(v)) }}
          style={{ margin: '8px 16px 24px' }}
        />
      </Form.Item>
    </Form>
  );
}
