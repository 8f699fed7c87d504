import { LIMITS } from '@hublink/contract';
import { describe, expect, it } from 'vitest';
import { bytes } from '../../../components/device/format';
import { addPoints, rateText } from './traffic';

const point = (time: number, iface = 'eth0') => ({ interface: iface, time, down: time % 7, upload: time % 5 });

describe('router traffic', () => {
  it(`keeps each interface's latest ${LIMITS.trafficWindow} points, in order`, () => {
    let s = addPoints({}, [point(1), point(1, 'wan')]);
    for (let t = 2; t <= 45; t++) s = addPoints(s, [point(t)]);
    expect(s.eth0).toHaveLength(LIMITS.trafficWindow);
    expect(s.eth0![0]!.time).toBe(6);
    expect(s.eth0!.at(-1)!.time).toBe(45);
    expect(s.wan).toHaveLength(1);
  });

  it('drops a point not newer than the last of its interface', () => {
    const s = addPoints(addPoints({}, [point(10)]), [point(10), point(9), point(11)]);
    expect(s.eth0!.map((p) => p.time)).toEqual([10, 11]);
  });

  it('shows the rate as the value divided by 8, to 2 decimals', () => {
    expect(rateText(12.5)).toBe('1.56 MB/s');
    expect(rateText(0)).toBe('0.00 MB/s');
    expect(rateText(100)).toBe('12.50 MB/s');
  });

  it('shows byte totals in binary units', () => {
    expect(bytes(512)).toBe('512 B');
    expect(bytes(1536)).toBe('1.50 KB');
    expect(bytes(5_000_000_000)).toBe('4.66 GB');
  });
});
