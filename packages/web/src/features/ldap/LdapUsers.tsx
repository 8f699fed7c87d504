import { fmt, importAllLdapUsers, importLdapUser, LDAP_SYNC_MODE, ldapMessages, type LdapUser, LIMITS, listLdapUsers, removeAllLdapUsers, removeDisabledLdapUsers, removeLdapUser, restartLdapSync, syncLdap } from '@hublink/contract';
import { Button, Flex, Popconfirm, Select, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useApiQuery } from '../../api/hooks';
import { useStepBackWhenEmpty } from '../../api/useStepBackWhenEmpty';
import { PagedTable, type PagedList } from '../../components/PagedTable';
import { LDAP_CALL, useLdapMutation, type LdapRights } from './api';

type Filter = 'all' | 'imported' | 'not';
const EXIST: Record<Filter, number | undefined> = { all: undefined, imported: 1, not: 0 };

/** A button that acts on the whole listing after its confirmation; loading while the call runs. */
function ConfirmedButton({ label, confirm, onConfirm, danger }: { label: string; confirm: string; onConfirm: () => Promise<unknown>; danger?: boolean }) {
  return (
    <Popconfirm title={confirm} onConfirm={onConfirm}>
      <Button danger={danger}>{label}</Button>
    </Popconfirm>
  );
}

/**
 * The directory's users (spec 3 §2): search by username or description (at most 10 shown), the
 * imported filter, and the actions on them. Every action carries the hash of the listing on screen,
 * so none acts on a listing that changed meanwhile (the server refuses it, and the list reloads).
 */
export function LdapUsers({ syncMode, rights }: { syncMode: number; rights: LdapRights }) {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [filter, setFilter] = useState<Filter>('all');
  const exist = EXIST[filter];
  const query = useApiQuery(listLdapUsers, { page, ...(search ? { search } : {}), ...(exist !== undefined ? { exist } : {}) }, LDAP_CALL);
  const data = query.data?.data;
  const hash = data?.hash ?? '';
  const list: PagedList<LdapUser> = {
    rows: data?.list,
    total: query.data?.count ?? 0,
    page,
    setPage,
    loading: query.isFetching,
    search: (text) => {
      setSearch(text);
      setPage(1);
    },
  };
  useStepBackWhenEmpty({ ...list, rows: data?.list });

  const importOne = useLdapMutation(importLdapUser);
  const removeOne = useLdapMutation(removeLdapUser);
  const importAll = useLdapMutation(importAllLdapUsers);
  const removeAll = useLdapMutation(removeAllLdapUsers);
  const removeDisabled = useLdapMutation(removeDisabledLdapUsers);
  const sync = useLdapMutation(syncLdap);
  const restart = useLdapMutation(restartLdapSync);
  const [acting, setActing] = useState<string | undefined>();

  /** One row's action: its button loads until the call is answered. */
  const rowAction = async (uuid: string, act: () => Promise<unknown>) => {
    setActing(uuid);
    try {
      await act();
    } finally {
      setActing(undefined);
    }
  };

  const columns = [
    { title: ldapMessages.ldapColUsername, dataIndex: 'username', key: 'username' },
    {
      // The member name the user maps to, and why it cannot be one (issue 33): never hidden.
      title: ldapMessages.ldapColMemberName,
      dataIndex: 'member_name',
      key: 'member_name',
      render: (v: string, u: LdapUser) => (
        <>
          {v || '—'}
          {u.issue && (
            <>
              <br />
              <Typography.Text type="danger">{u.issue}</Typography.Text>
            </>
          )}
        </>
      ),
    },
    {
      title: ldapMessages.ldapColDescription,
      dataIndex: 'description',
      key: 'description',
      render: (v: string) => (
        <Typography.Text ellipsis={{ tooltip: v }} style={{ maxWidth: 240 }}>
          {v}
        </Typography.Text>
      ),
    },
    {
      title: ldapMessages.ldapColStatus,
      dataIndex: 'disable',
      key: 'disable',
      render: (v: number) => (v === 1 ? <Tag color="default">{ldapMessages.ldapUserDisabled}</Tag> : <Tag color="green">{ldapMessages.ldapUserEnabled}</Tag>),
    },
    {
      title: ldapMessages.ldapColExist,
      dataIndex: 'exist',
      key: 'exist',
      render: (v: boolean) => (v ? <Tag color="blue">{ldapMessages.ldapFilterImported}</Tag> : <Tag>{ldapMessages.ldapFilterNotImported}</Tag>),
    },
    {
      title: ldapMessages.ldapColVerify,
      dataIndex: 'verify',
      key: 'verify',
      render: (v: string) => (v ? <Typography.Text type="danger">{v}</Typography.Text> : null),
    },
    {
      title: ldapMessages.ldapColActions,
      key: 'actions',
      fixed: 'right' as const,
      render: (_: unknown, u: LdapUser) =>
        u.exist ? (
          rights.delete && (
            <Popconfirm title={ldapMessages.ldapConfirmRemove} onConfirm={() => rowAction(u.uuid, () => removeOne.mutateAsync({ hash, uuid: u.uuid }))}>
              <Button type="link" size="small" danger loading={acting === u.uuid}>
                {ldapMessages.ldapRemove}
              </Button>
            </Popconfirm>
          )
        ) : (
          rights.create && (
            <Button type="link" size="small" loading={acting === u.uuid} onClick={() => void rowAction(u.uuid, () => importOne.mutateAsync({ hash, uuid: u.uuid }))}>
              {ldapMessages.ldapImport}
            </Button>
          )
        ),
    },
  ];

  const toolbar = (
    <>
      <Select<Filter>
        value={filter}
        onChange={(v) => {
          setFilter(v);
          setPage(1);
        }}
        aria-label={ldapMessages.ldapColExist}
        style={{ width: 120 }}
        options={[
          { value: 'all', label: ldapMessages.ldapFilterAll },
          { value: 'imported', label: ldapMessages.ldapFilterImported },
          { value: 'not', label: ldapMessages.ldapFilterNotImported },
        ]}
      />
      {syncMode === LDAP_SYNC_MODE.manual && rights.edit && (
        <Button type="primary" loading={sync.isPending} onClick={() => void sync.mutateAsync({ hash })}>
          {ldapMessages.ldapSyncNow}
        </Button>
      )}
      {rights.configure && (
        <Button loading={restart.isPending} onClick={() => void restart.mutateAsync(undefined)}>
          {ldapMessages.ldapRestartSync}
        </Button>
      )}
      {rights.create && <ConfirmedButton label={ldapMessages.ldapImportAll} confirm={ldapMessages.ldapConfirmImportAll} onConfirm={() => importAll.mutateAsync({ hash })} />}
      {rights.delete && <ConfirmedButton label={ldapMessages.ldapRemoveDisabled} confirm={ldapMessages.ldapConfirmRemoveDisabled} onConfirm={() => removeDisabled.mutateAsync({ hash })} danger />}
      {rights.delete && <ConfirmedButton label={ldapMessages.ldapRemoveAll} confirm={ldapMessages.ldapConfirmRemoveAll} onConfirm={() => removeAll.mutateAsync({ hash })} danger />}
    </>
  );

  return (
    <Flex vertical gap={8}>
      <PagedTable<LdapUser> rowKey="uuid" columns={columns} list={list} searchable searchPlaceholder={ldapMessages.ldapUserSearch} toolbar={toolbar} />
      {search && <Typography.Text type="secondary">{fmt(ldapMessages.ldapSearchShown, { n: LIMITS.ldapSearchShown })}</Typography.Text>}
    </Flex>
  );
}
