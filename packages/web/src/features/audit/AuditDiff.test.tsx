import { fmt, M, type AuditEntry } from '@hublink/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { AuditDiff } from './AuditDiff';

const entry: AuditEntry = {
  id: 1,
  create_time: '2026-11-30 08:00:00',
  who: 'operator',
  actor_name: 'root',
  ip: '',
  user_agent: '',
  source: 'cli',
  method: 'CLI',
  path: '/ops/tenants/plan',
  msg: 'tenant demo updated',
  action: '修改套餐',
  area: 'ops',
  kind: 'update',
  object_type: 'network',
  object_id: '3',
  object_name: '总部',
  changes: [
    {
      table: 'network',
      id: 3,
      name: '总部',
      op: 'update',
      fields: [
        { field: 'dns', before: '["8.8.8.8"]', after: '["8.8.8.8","114.114.114.114"]' },
        { field: 'interconnect_network', before: '{"gateway":"10.9.0.1","mask":24}', after: '{"gateway":"10.8.0.1","mask":24}' },
        { field: 'ncp_ciphers', before: 'default', after: 'sm' },
        { field: 'brand_new', before: 1, after: 2 },
      ],
    },
    { table: 'network_member', id: 7, op: 'insert', fields: [{ field: 'member_type', before: null, after: 'center' }] },
  ],
  more: 0,
  effect: null,
};

describe('AuditDiff', () => {
  it('says what was done and by whom in Chinese, and shows the changes by console names with no raw JSON', async () => {
    renderWithProviders(<AuditDiff entry={entry} onClose={() => {}} />);
    const drawer = await screen.findByRole('dialog');
    expect(within(drawer).getByText('修改套餐')).toBeInTheDocument();
    expect(within(drawer).getByText(M.auditWhoOperator)).toBeInTheDocument();
    expect(within(drawer).queryByText(/root|tenant demo updated/)).not.toBeInTheDocument();
    const row = (label: string) => within(drawer).getByText(label, { selector: 'span' }).closest('tr')!;
    expect(within(row('DNS')).getByText('8.8.8.8、114.114.114.114')).toBeInTheDocument();
    expect(within(row('中心互联网段')).getByText('10.9.0.1/24')).toBeInTheDocument();
    expect(within(row('加密方式')).getByText('国密（SM）')).toBeInTheDocument();
    // An unknown column keeps its name and its value.
    expect(within(row('brand_new')).getByText('2')).toBeInTheDocument();
    expect(drawer.textContent).not.toMatch(/[{}"[\]]/);
    // An insert shows what was written, without an empty 修改前 column.
    const inserted = within(drawer).getAllByTestId('audit-change')[1]!;
    expect(within(inserted).getByText('中心')).toBeInTheDocument();
    expect(within(inserted).queryByText(M.auditBefore)).not.toBeInTheDocument();
    // Each changed row by its name, or by its id when it has none.
    const [updated] = within(drawer).getAllByTestId('audit-change');
    expect(within(updated!).getByRole('heading').textContent).toMatch(/总部$/);
    expect(within(inserted).getByRole('heading').textContent).toMatch(/#7$/);
    // No network setting, no effect.
    expect(within(drawer).queryByRole('region', { name: M.effectTitle })).not.toBeInTheDocument();
  });

  it("shows a network setting's effect as its save worked it out", async () => {
    const withEffect: AuditEntry = {
      ...entry,
      effect: { members: [{ router_name: 'gw1', change: 'changed' }], member_count: 1, reach: [], reach_count: 0 },
    };
    renderWithProviders(<AuditDiff entry={withEffect} onClose={() => {}} />);
    const shown = await screen.findByRole('region', { name: M.effectTitle });
    expect(within(shown).getByText(fmt(M.effectMembers, { n: 1 }))).toBeInTheDocument();
    expect(within(shown).getByText('gw1')).toBeInTheDocument();
    expect(within(shown).getByText(M.previewReachSame)).toBeInTheDocument();
  });
});
