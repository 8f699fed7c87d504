import { M, softwareLoginLog, type SoftwareLoginItem } from '@hublink/contract';
import { usePagedList } from '../../api/usePagedList';
import { PagedTable } from '../../components/PagedTable';
import { useStepBackWhenEmpty } from '../../api/useStepBackWhenEmpty';

const columns = [
  { title: M.memberLogIp, dataIndex: 'ip', key: 'ip' },
  { title: M.memberLogOs, dataIndex: 'os', key: 'os' },
  { title: M.memberLogVersion, dataIndex: 'version', key: 'version' },
  { title: M.memberLogBrand, dataIndex: 'sys_brand', key: 'sys_brand' },
  { title: M.memberLogModel, dataIndex: 'sys_model', key: 'sys_model' },
  { title: M.memberLogSysVersion, dataIndex: 'sys_version', key: 'sys_version' },
  { title: M.memberLogTime, dataIndex: 'create_time', key: 'create_time', width: 170 },
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
