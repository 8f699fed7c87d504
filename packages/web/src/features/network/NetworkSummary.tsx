import { M, type NetworkDetail } from '@hublink/contract';
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
    { key: 'service', label: M.networkService, children: levelLabel(detail.network_service) },
    { key: 'type', label: M.networkColType, children: networkTypeLabel(detail.network_type) },
    { key: 'members', label: M.networkColMembers, children: detail.member_count },
    { key: 'center_link', label: M.networkCenterLink, children: onOffLabel(detail.network_center_link) },
    { key: 'routing', label: M.networkMenuRouting, children: routingLabel(detail) },
    { key: 'ciphers', label: M.networkCiphers, children: ciphersLabel(detail.ncp_ciphers) },
    { key: 'fr', label: M.networkColFr, children: detail.network_fr ? <Link to={popEditPath(detail.network_number)}>{detail.network_fr.shortname}</Link> : orDash(null) },
    { key: 'mode', label: M.networkMode, children: modeLabel(detail.mode) },
  ];
  return (
    <Card variant="borderless" title={M.networkSummary}>
      <Descriptions column={{ xs: 1, sm: 2, lg: 4 }} items={items} />
    </Card>
  );
}
