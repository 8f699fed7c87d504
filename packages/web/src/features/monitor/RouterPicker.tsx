import { BM, fmt, getLdapConfig, LIMITS, monitorMessages, type MonitorRouter, monitorRouters } from '@hublink/contract';
import { Checkbox, Empty, Flex, Input, Table, Tag, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useApiQuery } from '../../api/hooks';
import { mayVisit } from '../../session/guard';
import { useUser } from '../../session/user';

/** Where the monitoring page leads to the LDAP form (spec 3 §2.5: /router/ldap_edit with ldapType). */
export const LDAP_EDIT_FROM_MONITOR = '/router/ldap_edit?ldapType=edit';

/** The hardware member a private-mode LDAP reaches its directory through ('' for none), for main accounts. */
function useLdapRouter(): string {
  // LDAP is configured by main accounts only (the LDAP pages' rule).
  const configure = mayVisit('main', useUser());
  const ldap = useApiQuery(getLdapConfig, undefined, { enabled: configure, quiet: true }).data?.data;
  return ldap?.enable === 1 && ldap.data?.mode === 'private' ? ldap.data.router_name : '';
}

export interface RouterPickerProps {
  /** The names chosen. */
  selected: string[];
  onChange: (names: string[]) => void;
  disabled?: boolean;
}

/**
 * The devices to monitor: the tenant's hardware members with a search (name or note) and a select-all
 * of what the search shows; the table pages 10 at a time, the choice spans every page.
 */
export function RouterPicker({ selected, onChange, disabled }: RouterPickerProps) {
  const routers = useApiQuery(monitorRouters);
  const ldapRouter = useLdapRouter();
  const [search, setSearch] = useState('');
  const all = useMemo(() => routers.data?.data ?? [], [routers.data]);
  const shown = useMemo(() => {
    const text = search.trim().toLowerCase();
    return text ? all.filter((r) => r.router_name.toLowerCase().includes(text) || r.note.toLowerCase().includes(text)) : all;
  }, [all, search]);
  const chosen = new Set(selected);
  const shownChosen = shown.filter((r) => chosen.has(r.router_name)).length;

  const selectShown = (on: boolean) => {
    const names = new Set(selected);
    for (const r of shown) {
      if (on) names.add(r.router_name);
      else names.delete(r.router_name);
    }
    onChange([...names]);
  };

  return (
    <Flex vertical gap={12}>
      <Flex justify="space-between" align="center" gap={12} wrap>
        <Input.Search
          allowClear
          placeholder={monitorMessages.monitorRouterSearch}
          maxLength={LIMITS.searchMax}
          onSearch={setSearch}
          onChange={(e) => setSearch(e.target.value)}
          style={{ maxWidth: 320 }}
          aria-label={monitorMessages.monitorRouterSearch}
        />
        <Flex gap={12} align="center" wrap>
          <Checkbox
            checked={shown.length > 0 && shownChosen === shown.length}
            indeterminate={shownChosen > 0 && shownChosen < shown.length}
            disabled={disabled || shown.length === 0}
            onChange={(e) => selectShown(e.target.checked)}
          >
            {monitorMessages.monitorRoutersAll}
          </Checkbox>
          <Typography.Text type="secondary">{fmt(monitorMessages.monitorRoutersSelected, { n: selected.length, total: all.length })}</Typography.Text>
        </Flex>
      </Flex>
      <Table<MonitorRouter>
        rowKey="router_name"
        size="middle"
        loading={routers.isFetching}
        dataSource={shown}
        columns={[
          {
            title: monitorMessages.monitorRouterName,
            dataIndex: 'router_name',
            key: 'router_name',
            // The device a private LDAP syncs through: a tag, and the way to its configuration.
            render: (name: string) =>
              name === ldapRouter ? (
                <Flex gap={8} align="center" wrap>
                  {name}
                  <Tooltip title={monitorMessages.monitorLdapRouter}>
                    <Tag color="blue">LDAP</Tag>
                  </Tooltip>
                  <Link to={LDAP_EDIT_FROM_MONITOR}>{monitorMessages.monitorLdapEdit}</Link>
                </Flex>
              ) : (
                name
              ),
          },
          { title: monitorMessages.monitorRouterNote, dataIndex: 'note', key: 'note' },
        ]}
        rowSelection={{
          selectedRowKeys: selected,
          preserveSelectedRowKeys: true,
          // The select-all above covers every page of what the search shows, not only this page.
          hideSelectAll: true,
          getCheckboxProps: () => ({ disabled }),
          onChange: (keys) => onChange(keys.map(String)),
        }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={all.length === 0 ? monitorMessages.monitorNoRouters : BM.empty} /> }}
        pagination={{ pageSize: LIMITS.pageSize, hideOnSinglePage: true, showSizeChanger: false, showLessItems: true, showTotal: (n) => fmt(BM.tableTotal, { n }) }}
        scroll={{ x: 'max-content' }}
      />
    </Flex>
  );
}
