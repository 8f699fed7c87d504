import { M } from '@hublink/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../../test/render';
import { TrafficPanel } from './TrafficPanel';

const card = (name: string) => screen.getByRole('img', { name }).closest('.ant-card') as HTMLElement;

describe('TrafficPanel', () => {
  it('waits for the first sample instead of showing 0.00 MB/s and empty axes', () => {
    renderWithProviders(<TrafficPanel interfaces={['eth0']} series={{}} state={{ kind: 'open' }} />);
    const inbound = card(`eth0 ${M.routerTrafficIn}`);
    expect(within(inbound).getByRole('status')).toHaveTextContent(M.routerTrafficWaiting);
    expect(within(inbound).queryByText(/MB\/s/)).toBeNull();
  });

  it('shows the rate once a sample is in, and no waiting notice', () => {
    renderWithProviders(<TrafficPanel interfaces={['eth0']} series={{ eth0: [{ time: 100, down: 8, upload: 16 }] }} state={{ kind: 'open' }} />);
    const inbound = card(`eth0 ${M.routerTrafficIn}`);
    expect(within(inbound).getByText('1.00 MB/s')).toBeInTheDocument();
    expect(within(inbound).queryByRole('status')).toBeNull();
  });

  it('stops waiting when the stream has ended: a dash, no rate', () => {
    renderWithProviders(<TrafficPanel interfaces={['eth0']} series={{}} state={{ kind: 'ended', msg: '' }} />);
    const outbound = card(`eth0 ${M.routerTrafficOut}`);
    expect(within(outbound).queryByRole('status')).toBeNull();
    expect(within(outbound).getByText('-')).toBeInTheDocument();
  });
});
