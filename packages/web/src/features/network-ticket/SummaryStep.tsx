import { M, popRegionName } from '@hublink/contract';
import { Descriptions } from 'antd';
import type { Assignment } from './assignment';
import { bandwidthLabel, namesLabel, regionsLabel, yearsLabel } from './labels';

/** Step 3: what will be submitted. */
export function SummaryStep({ networkNumber, regions, years, bandwidth, assignment }: { networkNumber: string; regions: readonly string[]; years: number; bandwidth: number; assignment: Assignment }) {
  return (
    <Descriptions bordered column={1} size="middle">
      <Descriptions.Item label={M.ticketColNetwork}>{networkNumber}</Descriptions.Item>
      <Descriptions.Item label={M.ticketColType}>{M.ticketTypeAccessPop}</Descriptions.Item>
      <Descriptions.Item label={M.ticketDetailPop}>{regionsLabel(regions)}</Descriptions.Item>
      <Descriptions.Item label={M.ticketDetailExpired}>{yearsLabel(years)}</Descriptions.Item>
      <Descriptions.Item label={M.ticketDetailBandwidth}>{bandwidthLabel(bandwidth)}</Descriptions.Item>
      {regions.map((region) => (
        <Descriptions.Item key={region} label={popRegionName(region)}>
          {namesLabel(assignment[region] ?? []) || M.ticketDetailNoMembers}
        </Descriptions.Item>
      ))}
    </Descriptions>
  );
}
