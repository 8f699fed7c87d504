import { EditOutlined, MedicineBoxOutlined } from '@ant-design/icons';
import { diagnosisMessages, type RouterDetail, routerMessages } from '@hublink/contract';
import { Badge, Button, Card, Descriptions, Space } from 'antd';
import { bytes } from '../../../components/device/format';
import { isSoftwareMember, sessionWording } from './memberWording';

const orDash = (v: string) => v || '-';

/**
 * The router's info (spec 3 §3 Router/device), with the note's edit button when the role allows it. A
 * software member (spec 3 §3 Member) has no model, address or MAC: its card shows the software member
 * list's fields, in its words (账号, 手机号码, 登录状态, 状态, 系统).
 */
export function RouterInfoCard({ detail, canEdit, onEditNote, onDiagnose }: { detail: RouterDetail; canEdit: boolean; onEditNote: () => void; onDiagnose?: () => void }) {
  const online = detail.online_status === 1;
  const software = isSoftwareMember(detail);
  const session = sessionWording(detail);
  const name = { key: 'name', label: software ? routerMessages.memberColAccount : routerMessages.routerInfoName, children: detail.router_name };
  const note = {
    key: 'note',
    label: routerMessages.routerInfoNote,
    children: (
      <Space size={4}>
        <span>{orDash(detail.note)}</span>
        {canEdit && <Button type="text" size="small" icon={<EditOutlined />} aria-label={routerMessages.routerEditNote} onClick={onEditNote} />}
      </Space>
    ),
  };
  const state = { key: 'online', label: session.label, children: <Badge status={online ? 'success' : 'default'} text={online ? session.on : session.off} /> };
  const version = { key: 'version', label: routerMessages.routerInfoVersion, children: orDash(detail.version) };
  const since = { key: 'online_time', label: session.since, children: orDash(detail.online_time) };
  const traffic = [
    { key: 'input', label: routerMessages.routerInfoInput, children: bytes(detail.input) },
    { key: 'out', label: routerMessages.routerInfoOut, children: bytes(detail.out) },
  ];
  const items = software
    ? [
        name,
        note,
        { key: 'phone', label: routerMessages.memberColPhone, children: orDash(detail.phone) },
        state,
        { key: 'status', label: routerMessages.memberColStatus, children: <Badge status={detail.status === 1 ? 'success' : 'error'} text={detail.status === 1 ? routerMessages.memberStatusNormal : routerMessages.memberStatusOff} /> },
        { key: 'os', label: routerMessages.memberColOs, children: orDash(detail.os) },
        version,
        since,
        ...traffic,
        { key: 'create_time', label: routerMessages.memberColCreateTime, children: orDash(detail.create_time) },
      ]
    : [
        name,
        note,
        state,
        { key: 'model', label: routerMessages.routerInfoModel, children: orDash(detail.router_model) },
        { key: 'ipv4', label: routerMessages.routerInfoIpv4, children: orDash(detail.router_ipv4) },
        { key: 'mac', label: routerMessages.routerInfoMac, children: orDash(detail.router_mac) },
        version,
        since,
        ...traffic,
      ];
  return (
    <Card
      variant="borderless"
      title={software ? routerMessages.routerInfoSoftwareTitle : routerMessages.routerInfoTitle}
      extra={
        onDiagnose && (
          <Button icon={<MedicineBoxOutlined />} aria-label={diagnosisMessages.diagnosisAction} onClick={onDiagnose}>
            {diagnosisMessages.diagnosisAction}
          </Button>
        )
      }
    >
      <Descriptions column={{ xs: 1, sm: 2, lg: 3, xl: 4 }} items={items} />
    </Card>
  );
}
