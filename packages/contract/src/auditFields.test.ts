import { describe, expect, it } from 'vitest';
import { auditFieldKnown, auditFieldLabel, auditReference, auditValueText } from './auditFields';

const time = (ms: number) => `T${ms}`;
const show = (table: string, field: string, v: string | number | boolean | null) => auditValueText(table, field, v, time);

describe('audit changes as the console shows them', () => {
  it('names the fields of the network detail by their console names, per table where a name means two things', () => {
    expect(auditFieldLabel('network', 'network_name')).toBe('网络名称');
    expect(auditFieldLabel('network_member', 'mode')).toBe('拨号模式');
    expect(auditFieldLabel('network', 'ip_pool')).toBe('IP地址池');
    // An unknown column keeps its own name.
    expect(auditFieldLabel('network', 'brand_new_column')).toBe('brand_new_column');
  });

  it('shows codes by name, flags as 开启/关闭, instants through the clock given', () => {
    expect(show('member', 'router_type', 2)).toBe('软件成员');
    expect(show('network_member', 'member_type', 'center')).toBe('中心');
    expect(show('network_member', 'quagga', 1)).toBe('开启');
    expect(show('network', 'ncp_ciphers', 'sm')).toBe('国密（SM）');
    expect(show('network', 'update_time', 1_764_000_000_000)).toBe('T1764000000000');
    expect(show('network', 'network_name', '')).toBe('');
    expect(show('network', 'network_name', null)).toBe('');
  });

  it('never shows stored JSON: lists, segments and objects read as text', () => {
    const cases: [string, string, string, string][] = [
      ['network', 'dns', '["8.8.8.8","114.114.114.114"]', '8.8.8.8、114.114.114.114'],
      ['network', 'interconnect_network', '{"gateway":"10.9.0.1","mask":24}', '10.9.0.1/24'],
      ['network_member', 'gateway', '{"router":{"gateway":"10.1.0.1","mask":24},"software":null}', '硬件成员：10.1.0.1/24；软件成员：无'],
      ['network', 'ip_pool', '{"pop":"10.2.0.0/16","other":[]}', 'POP：10.2.0.0/16；其他：无'],
      ['ram_role', 'auth', '{"easylink.router":{"create":1,"edit":0}}', '成员管理：新增：是；修改：否'],
      ['network', 'some_new_json', '{"a":{"b":[1,2]}}', 'a：b：1、2'],
    ];
    for (const [table, field, stored, shown] of cases) {
      expect(show(table, field, stored)).toBe(shown);
      expect(show(table, field, stored)).not.toMatch(/[{}"[\]]/);
    }
    // Text that only looks like JSON stays as typed.
    expect(show('member', 'note', '{not json')).toBe('{not json');
  });

  it('knows the columns a network change writes', () => {
    for (const f of ['network_name', 'dns', 'ncp_ciphers', 'mode', 'routing_type', 'routing_secondary_id', 'ip_pool', 'center_link', 'center_link_network', 'interconnect', 'interconnect_network', 'network_fr_id', 'update_time'])
      expect(auditFieldKnown('network', f), f).toBe(true);
    for (const f of ['member_type', 'routing', 'default_route', 'metric', 'quagga', 'mode', 'ov_main', 'ov_backup', 'gateway', 'fixed_port', 'link_centers'])
      expect(auditFieldKnown('network_member', f), f).toBe(true);
  });

  it('shows an id by the name recorded with it, else as #id, and never as a bare number (issue 31)', () => {
    expect(auditValueText('ram_account', 'role_id', 3, time, '运维')).toBe('运维');
    expect(show('ram_account', 'role_id', 3)).toBe('#3');
    expect(auditValueText('network_member', 'network_id', 12, time, '总部网络')).toBe('总部网络');
    expect(show('network_member', 'member_id', 40)).toBe('#40');
    // No POP area is 0, not an id.
    expect(show('network_member', 'ov_main', 0)).toBe('');
    expect(auditValueText('network_member', 'ov_backup', 5, time, '华东')).toBe('华东');
    expect(auditFieldLabel('ram_account', 'role_id')).toBe('角色');
    // A point's chosen centers are a list of member ids.
    expect(show('network_member', 'link_centers', '[12,15]')).toBe('#12、#15');
    expect(auditValueText('network_member', 'link_centers', '[12,15]', time, '北京、上海')).toBe('北京、上海');
    // One column name, two tables: a POP resource's work order, a support ticket.
    expect(auditReference('network_fr', 'ticket_id')?.table).toBe('network_ticket');
    expect(auditReference('support_dialogue', 'ticket_id')?.table).toBe('support_ticket');
    expect(auditReference('network', 'network_name')).toBeUndefined();
  });

  it('shows codes by the labels the console gives them', () => {
    expect(show('network', 'mode', 2)).toBe('中心优先');
    expect(show('support_ticket', 'status', 3)).toBe('已关闭');
    expect(show('api_token', 'scope', 'role')).toBe('按角色');
    expect(show('device_approval', 'state', 'refused')).toBe('已拒绝');
    expect(show('ldap_config', 'type', 2)).toBe('Active Directory');
    expect(show('monitor_webhook', 'type', 'wecom')).toBe('企业微信');
    expect(show('auth_source', 'type', 'feishu')).toBe('飞书');
  });
});
