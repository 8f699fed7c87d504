import { routerMessages, type SoftwareLoginItem, softwareLoginLog } from '@hublink/contract';
import { usePagedList } from '../../api/usePagedList';
import { PagedTable } from '../../components/PagedTable';
import { useStepBackWhenEmpty } from '../../api/useStepBackWhenEmpty';

const columns = [
  { title: routerMessages.memberLogIp, dataIndex: 'ip', key: 'ip' },
  { title: routerMessages.memberLogOs, dataIndex: 'os', key: 'os' },
  { title: routerMessages.memberLogVersion, dataIndex: 'version', key: 'version' },
  { title: routerMessages.memberLogBrand, dataIndex: 'sys_brand', key: 'sys_brand' },
  { title: routerMessages.memberLogModel, dataIndex: 'sys_model', key: 'sys_model' },
  { title: routerMessages.memberLogSysVersion, dataIndex: 'sys_version', key: 'sys_version' },
  { title: routerMessages.memberLogTime, dataIndex: 'create_time', key: 'create_time', width: 170 },
];

/** A software member's sign-ins from the client, newest first, 10 a page (main accounts only). */
export function LoginRecords({ routerName }: { routerName: string }) {
  const list = usePagedList(softwareLoginLog, { router_name: routerName }, { on204: 'stay' });
  useStepBackWhenEmpty(list);
  return (
    <PagedTable<SoftwareLoginItem>
      rowKey={(r) => `${r.create_time}-${r.ip}-${r.version}`}
      size="small"
      columns={columns}
      list={list}
      scroll={{ x: 'max-content' }}
    />
  );
}
