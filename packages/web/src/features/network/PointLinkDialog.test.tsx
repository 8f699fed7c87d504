import { M } from '@hublink/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, ok } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { configEntries } from './configMenu';
import { detail, member } from '../../test/networkFixtures';
import { PointLinkDialog } from './PointLinkDialog';
import { okButton } from './segmentTesting';

const members = [member({ router_name: 'C1', member_type: 'center' }), member({ router_name: 'C2', member_type: 'center' }), member({ router_name: 'P1' })];

function setup() {
  const m = mockApi({ '/network/point_link': (call) => (call.method === 'GET' ? ok({ link_config: { P1: ['C1', 'C2'] } }) : ok(null, '保存成功')) });
  const onClose = vi.fn();
  renderWithProviders(<PointLinkDialog detail={detail({ member: members })} open onClose={onClose} />);
  return { m, onClose };
}

const posts = (m: ReturnType<typeof setup>['m']) => m.callsTo('/network/point_link').filter((c) => c.method === 'POST');

describe('PointLinkDialog', () => {
  it('is offered with two centers and a point', () => {
    const auth = { quagga: 0, quagga_advanced: 0, default_route: 0 };
    expect(configEntries(detail({ member: members }), auth).map((e) => e.key)).toContain('point_link');
    expect(configEntries(detail({ member: members.slice(1) }), auth).map((e) => e.key)).not.toContain('point_link');
  });

  it('refuses a point without centers, and sends the chosen centers', async () => {
    const { m, onClose } = setup();
    expect(await screen.findByText('P1')).toBeInTheDocument();
    const field = screen.getByLabelText(`P1 ${M.segUiPointLinkCenters}`).closest('.ant-select')!;
    for (const name of ['C1', 'C2']) {
      const tag = [...field.querySelectorAll('.ant-select-selection-item')].find((n) => n.textContent?.includes(name))!;
      await userEvent.click(tag.querySelector('.ant-select-selection-item-remove')!);
    }
    await userEvent.click(okButton());
    await shows(M.segPointLinkCentersRequired);
    expect(posts(m)).toHaveLength(0);

    await userEvent.click(screen.getByLabelText(`P1 ${M.segUiPointLinkCenters}`));
    await userEvent.click((await screen.findAllByTitle('C2')).at(-1)!);
    await userEvent.click(okButton());
    await waitFor(() => expect(posts(m)).toHaveLength(1));
    expect(posts(m)[0]!.body).toEqual({ network_number: 'N1', link_config: { P1: ['C2'] } });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });
});
