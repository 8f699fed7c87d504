import { M } from '@hublink/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, ok } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { member } from './fixtures';
import { MemberOvDialog } from './MemberOvDialog';

const okButton = () => screen.getAllByText(/确\s*定|OK/).at(-1)!.closest('button')!;
const area = (id: number, name: string, region: string) => ({ id, name, region, bandwidth: 100 });
const TWO = [area(1, '华南', 'south'), area(2, '华北', 'north')];
const THREE = [...TWO, area(3, '华东', 'east')];

function setup(areas = THREE, ov = { main: 0, backup: 0, main_name: '', backup_name: '', priority: 3 }) {
  const m = mockApi({ '/network/member_ov': ok(null, '保存成功') });
  const onClose = vi.fn();
  renderWithProviders(<MemberOvDialog networkNumber="N1" member={member({ router_name: 'R2', ov_id: ov })} areas={areas} onClose={onClose} />);
  return { m, onClose };
}

async function pick(label: string, name: string) {
  await userEvent.click(screen.getByLabelText(label));
  const options = await screen.findAllByTitle(name);
  await userEvent.click(options.at(-1)!);
}

describe('MemberOvDialog (POP区域)', () => {
  it('needs a main area, offers the backup only once a main is chosen, and refuses the same area twice', async () => {
    const { m } = setup();
    await screen.findByLabelText(M.popOvMain);
    expect(screen.queryByLabelText(M.popOvBackup)).not.toBeInTheDocument();
    await userEvent.click(okButton());
    await shows(M.popAreaMainRequired);

    await pick(M.popOvMain, '华北');
    await pick(M.popOvBackup, '华北');
    await userEvent.click(okButton());
    await shows(M.popAreaSame);
    expect(m.callsTo('/network/member_ov')).toHaveLength(0);

    await pick(M.popOvBackup, '华东');
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/network/member_ov')).toHaveLength(1));
    expect(m.callsTo('/network/member_ov')[0]!.body).toEqual({ network_number: 'N1', router_name: 'R2', ov_id_main: 2, ov_id_backup: 3 });
  });

  it('offers no backup with two areas or fewer', async () => {
    const { m } = setup(TWO);
    await pick(M.popOvMain, '华南');
    expect(screen.queryByLabelText(M.popOvBackup)).not.toBeInTheDocument();
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/network/member_ov')).toHaveLength(1));
    expect(m.callsTo('/network/member_ov')[0]!.body).toEqual({ network_number: 'N1', router_name: 'R2', ov_id_main: 1, ov_id_backup: 0 });
  });

  it('reports an unchanged choice saved without a call', async () => {
    const { m, onClose } = setup(THREE, { main: 1, backup: 3, main_name: '华南', backup_name: '华东', priority: 3 });
    expect(await screen.findByTitle('华东')).toBeInTheDocument();
    await userEvent.click(okButton());
    await shows(M.saved);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(m.callsTo('/network/member_ov')).toHaveLength(0);
  });
});
