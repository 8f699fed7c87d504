import { networkTicketMessages, popRegionName } from '@hublink/contract';
import { Descriptions } from 'antd';
import type { Assignment } from './assignment';
import { bandwidthLabel, namesLabel, regionsLabel, yearsLabel } from './labels';

/** Step 3: what will be submitted. */
export function SummaryStep({ networkNumber, regions, years, bandwidth, assignment }: { networkNumber: string; regions: readonly string[]; years: number; bandwidth: number; assignment: Assignment }) {
  return (
    <Descriptions bordered column={1} size="middle">
      <Descriptions.Item label={networkTicketMessages.ticketColNetwork}>{networkNumber}</Descriptions.Item>
      <Descriptions.Item label={networkTicketMessages.ticketColType}>{networkTicketMessages.ticketTypeAccessPop}</Descriptions.Item>
      <Descriptions.Item label={networkTicketMessages.ticketDetailPop}>{regionsLabel(regions)}</Descriptions.Item>
      <Descriptions.Item label={networkTicketMessages.ticketDetailExpired}>{yearsLabel(years)}</Descriptions.Item>
      <Descriptions.Item label={networkTicketMessages.ticketDetailBandwidth}>{bandwidthLabel(bandwidth)}</Descriptions.Item>
      {regions.map((region) => (
        <Descriptions.Item key={region} label={popRegionName(region)}>
          {namesLabel(assignment[region] ?? []) || networkTicketMessages.ticketDetailNoMembers}
        </Descriptions.Item>
      ))}
    </Descriptions>
  );
}
