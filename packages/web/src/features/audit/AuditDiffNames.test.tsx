import type { AuditEntry } from '@hublink/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { AuditDiff } from './AuditDiff';

/** Issue 31: ids show as the names recorded with them; an entry from before names were recorded shows #id. */
const entry = (fields: AuditEntry['changes'][number]['fields']): AuditEntry => ({
  id: 2,
  create_time: '2026-11-30 08:00:00',
  who: 'main',
  actor_name: '',
  ip: '127.0.0.1',
  user_agent: '',
  source: 'console',
  method: 'POST',
  path: '/ram/edit',
  msg: '',
  action: '修改子账号',
  area: 'ram',
  kind: 'update',
  object_type: 'ram_account',
  object_id: '5',
  object_name: 'ops',
  changes: [{ table: 'ram_account', id: 5, op: 'update', fields }],
  more: 0,
  effect: null,
});

const cellsOf = async (label: string) => {
  const drawer = await screen.findByRole('dialog');
  const row = within(drawer).getByText(label, { selector: 'span' }).closest('tr')!;
  return [...row.querySelectorAll('td')].map((td) => td.textContent);
};

describe('AuditDiff: ids by name', () => {
  it("shows a sub-account's role by the names recorded with the change", async () => {
    renderWithProviders(<AuditDiff entry={entry([{ field: 'role_id', before: 3, after: 4, before_name: '运维', after_name: '审计员' }])} onClose={() => {}} />);
    expect(await cellsOf('角色')).toEqual(['角色', '运维', '审计员']);
  });

  it('shows #id for an entry recorded without names, and a status by its console label', async () => {
    renderWithProviders(
      <AuditDiff
        entry={entry([
          { field: 'role_id', before: 3, after: 4 },
          { field: 'status', before: 1, after: 0 },
          { field: 'tenant_id', before: 9, after: 10 },
        ])}
        onClose={() => {}}
      />,
    );
    expect(await cellsOf('角色')).toEqual(['角色', '#3', '#4']);
    expect(await cellsOf('启用状态')).toEqual(['启用状态', '启用', '停用']);
    // The tenant's own id is not shown.
    expect(screen.getByRole('dialog').textContent).not.toMatch(/tenant_id|#9|#10/);
  });
});
