import { describe, expect, it } from 'vitest';
import { bodyOf, canBeCenter, refusalOf, repositionRefusal, usedCount, type PickerBase, type Picked } from './memberPicker';

const hw = (name: string) => ({ router_name: name, router_type: 1 });
const sw = (name: string) => ({ router_name: name, router_type: 2 });
const picked = (name: string, member_type: 'center' | 'point', router_type = 1): Picked => ({ router_name: name, note: '', router_type, member_type });
const base = (over: Partial<PickerBase> = {}): PickerBase => ({ use: 1, count: 3, centers: 1, original: new Set(), ...over });

describe('member picker', () => {
  it('counts one more in use for each member moved in, none for members already in this network', () => {
    expect(usedCount(base(), [])).toBe(1);
    expect(usedCount(base(), [picked('R1', 'point'), picked('R2', 'point')])).toBe(3);
    expect(usedCount(base({ use: 3, original: new Set(['R1']) }), [picked('R1', 'point'), picked('R2', 'point')])).toBe(4);
  });

  it('refuses software as a center, a center beyond the limit, and a member beyond the quota', () => {
    expect(refusalOf(base(), [], sw('A1'), 'center')).toEqual({ kind: 'softwareCenter' });
    expect(refusalOf(base(), [], sw('A1'), 'point')).toBeNull();
    expect(refusalOf(base(), [picked('R1', 'center')], hw('R2'), 'center')).toEqual({ kind: 'center', n: 1 });
    expect(refusalOf(base(), [picked('R1', 'center'), picked('R2', 'point')], hw('R3'), 'point')).toEqual({ kind: 'quota', n: 3 });
  });

  it('offers software only as a point, hardware as either', () => {
    expect(canBeCenter(sw('A1'))).toBe(false);
    expect(canBeCenter(hw('R1'))).toBe(true);
  });

  it('lets a member of this network move back in at a full quota', () => {
    const b = base({ use: 3, original: new Set(['R1']) });
    expect(refusalOf(b, [], hw('R1'), 'point')).toBeNull();
    expect(refusalOf(b, [], hw('R2'), 'point')).toEqual({ kind: 'quota', n: 3 });
  });

  it('a picked member switches to center only within the limit and only when it is hardware', () => {
    const list = [picked('R1', 'center'), picked('R2', 'point'), picked('A1', 'point', 2)];
    expect(repositionRefusal(base(), list, 'R2', 'center')).toEqual({ kind: 'center', n: 1 });
    expect(repositionRefusal(base({ centers: 2 }), list, 'R2', 'center')).toBeNull();
    expect(repositionRefusal(base({ centers: 2 }), list, 'A1', 'center')).toEqual({ kind: 'softwareCenter' });
    expect(repositionRefusal(base(), list, 'R1', 'point')).toBeNull();
  });

  it('sends centers and points as two lists of names', () => {
    expect(bodyOf([picked('R1', 'center'), picked('R2', 'point'), picked('A1', 'point', 2)])).toEqual({ center: ['R1'], point: ['R2', 'A1'] });
  });
});
