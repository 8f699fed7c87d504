import { EditOutlined, MedicineBoxOutlined } from '@ant-design/icons';
import { diagnosisMessages, type RouterDetail, routerMessages } from '@hublink/contract';
import { Badge, Button, Card, Descriptions, Space } from 'antd';
import { bytes } from '../../../components/device/format';

const orDash = (v: string) => v || '-';

/** The router's info (spec 3 §3 Router/device), with the note's edit button when the role allows it. */
export function RouterInfoCard({ detail, canEdit, onEditNote, onDiagnose }: { detail: RouterDetail; canEdit: boolean; onEditNote: () => void; onDiagnose?: () => void }) {
  const online = detail.online_status === 1;
  const items = [
    { key: 'name', label: routerMessages.routerInfoName, children: detail.router_name },
    {
      key: 'note',
      label: routerMessages.routerInfoNote,
      children: (
        <Space size={4}>
          <span>{orDash(detail.note)}</span>
          {canEdit && <Button type="text" size="small" icon={<EditOutlined />} aria-label={routerMessages.routerEditNote} onClick={onEditNote} />}
        </Space>
      ),
    },
    { key: 'online', label: routerMessages.routerInfoOnline, children: <Badge status={online ? 'success' : 'default'} text={online ? routerMessages.routerConnected : routerMessages.routerDisconnected} /> },
    { key: 'model', label: routerMessages.routerInfoModel, children: orDash(detail.router_model) },
    { key: 'ipv4', label: routerMessages.routerInfoIpv4, children: orDash(detail.router_ipv4) },
    { key: 'mac', label: routerMessages.routerInfoMac, children: orDash(detail.router_mac) },
    { key: 'version', label: routerMessages.routerInfoVersion, children: orDash(detail.version) },
    { key: 'online_time', label: routerMessages.routerInfoOnlineTime, children: orDash(detail.online_time) },
    { key: 'input', label: routerMessages.routerInfoInput, children: bytes(detail.input) },
    { key: 'out', label: routerMessages.routerInfoOut, children: bytes(detail.out) },
  ];
  return (
    <Card
      variant="borderless"
      title={routerMessages.routerInfoTitle}
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
