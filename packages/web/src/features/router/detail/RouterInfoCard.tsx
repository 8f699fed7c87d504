import { EditOutlined, MedicineBoxOutlined } from '@ant-design/icons';
import { M, type RouterDetail } from '@hublink/contract';
import { Badge, Button, Card, Descriptions, Space } from 'antd';
import { bytes } from '../../../components/device/format';

const orDash = (v: string) => v || '-';

/** The router's info (spec 3 §3 Router/device), with the note's edit button when the role allows it. */
export function RouterInfoCard({ detail, canEdit, onEditNote, onDiagnose }: { detail: RouterDetail; canEdit: boolean; onEditNote: () => void; onDiagnose?: () => void }) {
  const online = detail.online_status === 1;
  const items = [
    { key: 'name', label: M.routerInfoName, children: detail.router_name },
    {
      key: 'note',
      label: M.routerInfoNote,
      children: (
        <Space size={4}>
          <span>{orDash(detail.note)}</span>
          {canEdit && <Button type="text" size="small" icon={<EditOutlined />} aria-label={M.routerEditNote} onClick={onEditNote} />}
        </Space>
      ),
    },
    { key: 'online', label: M.routerInfoOnline, children: <Badge status={online ? 'success' : 'default'} text={online ? M.routerConnected : M.routerDisconnected} /> },
    { key: 'model', label: M.routerInfoModel, children: orDash(detail.router_model) },
    { key: 'ipv4', label: M.routerInfoIpv4, children: orDash(detail.router_ipv4) },
    { key: 'mac', label: M.routerInfoMac, children: orDash(detail.router_mac) },
    { key: 'version', label: M.routerInfoVersion, children: orDash(detail.version) },
    { key: 'online_time', label: M.routerInfoOnlineTime, children: orDash(detail.online_time) },
    { key: 'input', label: M.routerInfoInput, children: bytes(detail.input) },
    { key: 'out', label: M.routerInfoOut, children: bytes(detail.out) },
  ];
  return (
    <Card
      variant="borderless"
      title={M.routerInfoTitle}
      extra={
        onDiagnose && (
          <Button icon={<MedicineBoxOutlined />} aria-label={M.diagnosisAction} onClick={onDiagnose}>
            {M.diagnosisAction}
          </Button>
        )
      }
    >
      <Descriptions column={{ xs: 1, sm: 2, lg: 3, xl: 4 }} items={items} />
    </Card>
  );
}
