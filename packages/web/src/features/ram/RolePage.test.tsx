import { M, type RoleItem } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi, ok, refused } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import RolePage from './RolePage';

const rows: RoleItem[] = [{ id: 4, name: '运维', note: '日常运维', create_time: '2026-01-01 10:00:00', update_time: '2026-01-02 10:00:00' }];

describe('RolePage', () => {
  it('lists roles, opens the permission editor, and shows why a role in use is not deleted', async () => {
    const m = mockApi({
      '/ram_role/lists': { code: 200, msg: 'success', data: rows, count: 1 },
      '/ram_role/delete': refused(M.roleInUse),
    });
    renderWithProviders(<RolePage />, { route: '/ram/role' });
    const row = (await screen.findByText('日常运维')).closest('tr')!;

    await userEvent.click(within(row).getByRole('button', { name: M.ramActionDelete }));
    await shows(M.confirmDelete);
    await userEvent.click(screen.getByRole('button', { name: /确\s*定|OK/ }));
    await shows(M.roleInUse);
    expect(m.callsTo('/ram_role/delete')[0]!.body).toEqual({ id: 4 });

    await userEvent.click(screen.getByRole('button', { name: new RegExp(M.roleCreate) }));
    await shows(M.rolePermMonitor);
    expect(screen.getByRole('group', { name: M.rolePermNetwork })).toBeInTheDocument();
  });

  it('searches by name from page 1', async () => {
    const m = mockApi({ '/ram_role/lists': ok(rows) });
    renderWithProviders(<RolePage />, { route: '/ram/role' });
    await userEvent.type(await screen.findByPlaceholderText(M.roleSearch), '运维{Enter}');
    await waitFor(() => expect(m.callsTo('/ram_role/lists').at(-1)!.query).toEqual({ page: '1', search: '运维' }));
  });
});

describe('RolePage paging', () => {
  it('steps back a page when the last role of a later page is deleted', async () => {
    let page2 = [{ ...rows[0]!, id: 11, name: '第十一个', note: '最后一个' }];
    const m = mockApi({
      '/ram_role/lists': (c) =>
        c.query.page === '2'
          ? { code: 200, msg: 'success', data: page2, count: 10 + page2.length }
          : { code: 200, msg: 'success', data: Array.from({ length: 10 }, (_, i) => ({ ...rows[0]!, id: i + 1, name: `角色${i + 1}` })), count: 10 + page2.length },
      '/ram_role/delete': () => {
        page2 = [];
        return ok(null, M.deleted);
      },
    });
    renderWithProviders(<RolePage />, { route: '/ram/role' });
    await userEvent.click(await screen.findByTitle('2'));
    const row = (await screen.findByText('最后一个')).closest('tr')!;
    await userEvent.click(within(row).getByRole('button', { name: M.ramActionDelete }));
    await userEvent.click(await screen.findByRole('button', { name: /确\s*定|OK/ }));
    await shows('角色1');
    expect(m.callsTo('/ram_role/lists').at(-1)!.query.page).toBe('1');
  });
});
