import { DownloadOutlined, PlusOutlined, SyncOutlined } from '@ant-design/icons';
import { CODE, exportRouters, fmt, LDAP_SYNC_MODE, ldapMessages, ldapStatus, LIMITS, listLdapUsers, listRouters, MEMBER_FILES, type MemberState, ROUTER_TYPE, type RouterItem, routerMessages, routerQuantity, type RouterType, syncLdap, updateRouterStatus } from '@hublink/contract';
import { Button, Tag } from 'antd';
import { useState } from 'react';
import { call } from '../../api/client';
import { download } from '../../api/files';
import { useApiMutation, useApiQuery } from '../../api/hooks';
import { usePagedList } from '../../api/usePagedList';
import { useUser } from '../../session/user';
import { PagedTable } from '../../components/PagedTable';
import { useStepBackWhenEmpty } from '../../api/useStepBackWhenEmpty';
import { AddMemberDialog } from './AddMemberDialog';
import { useRouterMutation } from './api';
import { BatchAddDialog } from './BatchAddDialog';
import { BatchDeleteDialog } from './BatchDeleteDialog';
import { memberColumns } from './columns';
import { DeleteMemberDialog } from './DeleteMemberDialog';
import { DiagnosisDialog } from '../../components/diagnosis/DiagnosisDialog';
import { sessionWording } from './detail/memberWording';
import { MemberDetailDialog } from './MemberDetailDialog';
import { NoteDialog } from './NoteDialog';
import { PasswordDialog } from './PasswordDialog';
import { PhoneDialog } from './PhoneDialog';
import { useMemberRights } from './rights';
import { SignDialog } from './SignDialog';
import { useListExport } from '../../components/useListExport';
import { useQuotaDialog } from './quotaDialog';

type Dialog = 'add' | 'batchAdd' | 'batchDelete' | 'sign' | null;
type RowDialog = { kind: 'note' | 'delete' | 'phone' | 'password' | 'detail' | 'diagnose'; member: RouterItem } | null;

/**
 * One tab of /router/lists (spec 3 §2): the members of one router_type with search and pager, the
 * tab's toolbar, and the dialogs its rows and buttons open. Buttons the role does not grant are hidden.
 * The software tab's "sync users" shows while LDAP is on in manual sync mode (spec 3 §2). `state`
 * limits the list to the members a dashboard overview figure counts.
 */
export function MemberTab({ type, state }: { type: RouterType; state?: MemberState }) {
  const software = type === ROUTER_TYPE.software;
  const list = usePagedList(listRouters, state ? { type, state } : { type });
  useStepBackWhenEmpty(list);
  const quantity = useApiQuery(routerQuantity).data?.data;
  const rights = useMemberRights();
  const sign = useUser()?.sign ?? '';
  const status = useRouterMutation(updateRouterStatus);
  const [switching, setSwitching] = useState<string | undefined>();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [row, setRow] = useState<RowDialog>(null);
  // The LDAP state is an extra of this page: a failure to read it hides the button and says nothing.
  const ldap = useApiQuery(ldapStatus, undefined, { quiet: true, enabled: software }).data?.data;
  const syncLdapUsers = useApiMutation(syncLdap, { invalidates: ['/router/', '/ldap/'], timeoutMs: LIMITS.directoryTimeoutMs });
  const [syncing, setSyncing] = useState(false);
  const syncUsers = async () => {
    setSyncing(true);
    try {
      // A sync carries the hash of the directory's listing as it is now.
      const listing = await call(listLdapUsers, { query: { limit: 1 } }, { timeoutMs: LIMITS.directoryTimeoutMs });
      if (listing.code === CODE.ok && listing.data) await syncLdapUsers.mutateAsync({ hash: listing.data.hash });
    } finally {
      setSyncing(false);
    }
  };

  // No place left under the plan: 添加成员 says so (spec 2 §5) instead of opening a form the server would
  // refuse. 批量添加 still opens: it shows a running or ended import, and refuses rows beyond the plan by row.
  const showQuota = useQuotaDialog();
  const openAdd = () => (quantity && quantity.software_surplus <= 0 ? showQuota(quantity.max) : setDialog('add'));

  const open = (kind: NonNullable<RowDialog>['kind']) => (member: RouterItem) => setRow({ kind, member });
  const rowOf = (kind: NonNullable<RowDialog>['kind']) => (row?.kind === kind ? row.member : undefined);
  const closeRow = () => setRow(null);

  const toggleStatus = async (r: RouterItem) => {
    setSwitching(r.router_name);
    try {
      await status.mutateAsync({ router_name: r.router_name });
    } finally {
      setSwitching(undefined);
    }
  };

  const { exporting, run: exportList } = useListExport(list, () => download(exportRouters, { type, ...(list.searchText ? { search: list.searchText } : {}) }, `${MEMBER_FILES.export}.xlsx`));

  const columns = memberColumns(type, rights, {
    note: open('note'),
    remove: open('delete'),
    phone: open('phone'),
    password: open('password'),
    detail: open('detail'),
    diagnose: open('diagnose'),
    toggleStatus: (r) => void toggleStatus(r),
    switching,
  });

  const toolbar = (
    <>
      {quantity && (
        <Tag color={quantity.hardware + quantity.software >= quantity.max ? 'red' : 'blue'} style={{ marginInlineEnd: 0, alignSelf: 'center' }}>
          {fmt(routerMessages.memberQuantity, { n: quantity.hardware + quantity.software, max: quantity.max })}
        </Tag>
      )}
      {software && rights.main && (
        <Button onClick={() => setDialog('sign')} title={routerMessages.memberSignTitle}>
          {fmt(routerMessages.memberSignButton, { sign })}
        </Button>
      )}
      {software && rights.edit && ldap?.enable === 1 && ldap.sync_mode !== LDAP_SYNC_MODE.automatic && (
        <Button icon={<SyncOutlined />} loading={syncing} onClick={() => void syncUsers()}>
          {ldapMessages.ldapSyncUsers}
        </Button>
      )}
      {software && (
        <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void exportList()}>
          {routerMessages.memberExport}
        </Button>
      )}
      {software && rights.create && <Button onClick={() => setDialog('batchAdd')}>{routerMessages.memberBatchAdd}</Button>}
      {software && rights.delete && (
        <Button danger onClick={() => setDialog('batchDelete')}>
          {routerMessages.memberBatchDelete}
        </Button>
      )}
      {rights.create && (
        <Button type="primary" icon={<PlusOutlined />} onClick={openAdd}>
          {routerMessages.memberAdd}
        </Button>
      )}
    </>
  );

  const close = () => setDialog(null);
  return (
    <>
      <PagedTable<RouterItem>
        rowKey="router_name"
        columns={columns}
        list={list}
        searchable
        searchPlaceholder={routerMessages.memberSearch}
        toolbar={toolbar}
        scroll={{ x: 'max-content' }}
      />
      <AddMemberDialog type={type} open={dialog === 'add'} onClose={close} />
      <NoteDialog member={rowOf('note')} onClose={closeRow} />
      <DeleteMemberDialog member={rowOf('delete')} onClose={closeRow} />
      <DiagnosisDialog routerName={rowOf('diagnose')?.router_name} session={sessionWording({ router_type: type })} onClose={closeRow} />
      {software && (
        <>
          <PhoneDialog member={rowOf('phone')} onClose={closeRow} />
          <PasswordDialog member={rowOf('password')} onClose={closeRow} />
          <MemberDetailDialog member={rowOf('detail')} main={rights.main} edit={rights.edit} onClose={closeRow} />
          <SignDialog open={dialog === 'sign'} current={sign} onClose={close} />
          <BatchAddDialog open={dialog === 'batchAdd'} onClose={close} />
          <BatchDeleteDialog open={dialog === 'batchDelete'} rows={list.rows ?? []} onClose={close} />
        </>
      )}
    </>
  );
}
