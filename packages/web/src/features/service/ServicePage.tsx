import { listServices, type ServiceItem, serviceMessages } from '@hublink/contract';
import type { TableColumnsType } from 'antd';
import { usePagedList } from '../../api/usePagedList';
import { PageContainer } from '../../components/PageContainer';
import { PagedTable } from '../../components/PagedTable';

const columns: TableColumnsType<ServiceItem> = [
  { title: serviceMessages.serviceColName, dataIndex: 'service_name' },
  { title: serviceMessages.serviceColQuantity, dataIndex: 'quantity', width: 120 },
  { title: serviceMessages.serviceColStart, dataIndex: 'start_time', width: 200 },
  { title: serviceMessages.serviceColExpired, dataIndex: 'expired_time', width: 200 },
];

/** My services (spec 1 §2.10): service_name, quantity, start_time, expired_time; 10 a page. */
export default function ServicePage() {
  const list = usePagedList(listServices);
  return (
    <PageContainer>
      <PagedTable<ServiceItem>
        rowKey="id"
        list={list}
        columns={columns}
      />
    </PageContainer>
  );
}
