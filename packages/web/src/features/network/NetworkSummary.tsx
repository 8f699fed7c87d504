import { type NetworkDetail, networkMessages } from '@hublink/contract';
import { Card, Descriptions } from 'antd';
import { Link } from 'react-router';
import { popEditPath } from './popLinks';
import { ciphersLabel, levelLabel, modeLabel, networkTypeLabel, onOffLabel, orDash, routingLabel } from './labels';

/**
 * The summary of a network (spec 2 §2): service, type, members, twin-center link, line main/backup (the
 * twin-center link's line mode), ciphers, POP, line mode.
 */
export function NetworkSummary({ detail }: { detail: NetworkDetail }) {
  const items = [
    { key: 'service', label: networkMessages.networkService, children: levelLabel(detail.network_service) },
    { key: 'type', label: networkMessages.networkColType, children: networkTypeLabel(detail.network_type) },
    { key: 'members', label: networkMessages.networkColMembers, children: detail.member_count },
    { key: 'center_link', label: networkMessages.networkCenterLink, children: onOffLabel(detail.network_center_link) },
    { key: 'routing', label: networkMessages.networkMenuRouting, children: routingLabel(detail) },
    { key: 'ciphers', label: networkMessages.networkCiphers, children: ciphersLabel(detail.ncp_ciphers) },
    { key: 'fr', label: networkMessages.networkColFr, children: detail.network_fr ? <Link to={popEditPath(detail.network_number)}>{detail.network_fr.shortname}</Link> : orDash(null) },
    { key: 'mode', label: networkMessages.networkMode, children: modeLabel(detail.mode) },
  ];
  return (
    <Card variant="borderless" title={networkMessages.networkSummary}>
      <Descriptions column={{ xs: 1, sm: 2, lg: 4 }} items={items} />
    </Card>
  );
}
