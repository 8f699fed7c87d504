import { M } from '@hublink/contract';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TopologyLegend } from './TopologyLegend';

describe('TopologyLegend', () => {
  it('is one list of spec 2 §2 six items then the main and backup lines: offline dashed, backup thin, the offline node hollow', () => {
    render(<TopologyLegend />);
    const items = within(screen.getByRole('list')).getAllByRole('listitem');
    expect(items.map((i) => i.textContent)).toEqual([
      M.networkLegendCenter,
      M.networkLegendLink,
      M.networkLegendPop,
      M.networkLegendNotLogged,
      M.networkLegendOnline,
      M.networkLegendOffline,
      M.networkLegendMainLine,
      M.networkLegendBackupLine,
    ]);
    const swatch = (label: string) => items.find((i) => i.textContent === label)!.querySelector('[aria-hidden]')!;
    expect(swatch(M.networkLegendOffline).classList).toContain('topology-line-dashed');
    expect(swatch(M.networkLegendOnline).classList).not.toContain('topology-line-dashed');
    expect(swatch(M.networkLegendBackupLine).classList).toContain('topology-line-thin');
    expect(swatch(M.networkLegendMainLine).classList).not.toContain('topology-line-thin');
    expect(swatch(M.networkLegendNotLogged).classList).toContain('topology-node-offline');
    expect(swatch(M.networkLegendCenter).classList).toContain('topology-node-center');
  });
});
