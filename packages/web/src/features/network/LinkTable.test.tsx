import { fmt, M } from '@hublink/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/render';
import { link } from '../../test/networkFixtures';
import { LinkTable } from './LinkTable';

/** The links list says which way each link runs (issue 30): straight to its center, or through a POP area's relay. */
describe('LinkTable', () => {
  it('shows 直连, 经POP(area), or a dash when the device did not say', () => {
    renderWithProviders(
      <LinkTable
        links={[
          link({ router_name: 'P1', path: 'center' }),
          link({ router_name: 'P2', path: 'pop', pop_area: '华南' }),
          link({ router_name: 'P3', vpn_online: 0, vpn_ip: '', vpn_online_time: '' }),
        ]}
      />,
    );
    expect(screen.getByRole('columnheader', { name: M.networkLinkPath })).toBeInTheDocument();
    const row = (name: string) => screen.getByRole('row', { name: new RegExp(`^${name} `) });
    expect(within(row('P1')).getByText(M.networkLinkDirect)).toBeInTheDocument();
    expect(within(row('P2')).getByText(fmt(M.networkLinkViaPop, { area: '华南' }))).toBeInTheDocument();
    expect(within(row('P3')).queryByText(M.networkLinkDirect)).toBeNull();
    expect(within(row('P3')).getAllByText('-').length).toBeGreaterThan(0);
  });
});
