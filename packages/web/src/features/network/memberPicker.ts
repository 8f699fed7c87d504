import { ROUTER_TYPE, type MemberType } from '@hublink/contract';

/** A member chosen for the network, with its position. */
export interface Picked {
  router_name: string;
  note: string;
  router_type: number;
  member_type: MemberType;
}

/** What the counter and the checks start from. */
export interface PickerBase {
  /** network_router_use of /network/config when the page opened. */
  use: number;
  /** network_router_count: the plan's member limit. */
  count: number;
  /** network_center_count: centers one network may have. */
  centers: number;
  /** Members already in this network when the page opened (edit mode); they never change the counter. */
  original: ReadonlySet<string>;
}

/** Software clients are only ever points (spec 2 §5); every picker offers 中心点 through this rule. */
export const canBeCenter = (member: { router_type: number }) => member.router_type !== ROUTER_TYPE.software;

/** Why a move is refused (spec 2 §5), or null when it is allowed. */
export type Refusal = { kind: 'quota'; n: number } | { kind: 'center'; n: number } | { kind: 'softwareCenter' };

/**
 * Members in use as the page shows it: the quota's use plus every picked member that was not in this
 * network already. Moving a member in raises it by one, removing it lowers it again (spec 2 §2).
 */
export const usedCount = (base: PickerBase, picked: readonly Picked[]) =>
  base.use + picked.filter((p) => !base.original.has(p.router_name)).length;

const centersOf = (picked: readonly Picked[]) => picked.filter((p) => p.member_type === 'center').length;

/** Whether a candidate may move in at a position: software only as a point, centers and members within limits. */
export function refusalOf(base: PickerBase, picked: readonly Picked[], candidate: { router_name: string; router_type: number }, position: MemberType): Refusal | null {
  if (position === 'center' && !canBeCenter(candidate)) return { kind: 'softwareCenter' };
  if (position === 'center' && centersOf(picked) >= base.centers) return { kind: 'center', n: base.centers };
  if (!base.original.has(candidate.router_name) && usedCount(base, picked) >= base.count) return { kind: 'quota', n: base.count };
  return null;
}

/** Whether a picked member may switch position. */
export function repositionRefusal(base: PickerBase, picked: readonly Picked[], name: string, position: MemberType): Refusal | null {
  const member = picked.find((p) => p.router_name === name);
  if (!member || member.member_type === position || position === 'point') return null;
  if (!canBeCenter(member)) return { kind: 'softwareCenter' };
  return centersOf(picked) >= base.centers ? { kind: 'center', n: base.centers } : null;
}

/** The create/edit body's two lists of names. */
export const bodyOf = (picked: readonly Picked[]) => ({
  center: picked.filter((p) => p.member_type === 'center').map((p) => p.router_name),
  point: picked.filter((p) => p.member_type === 'point').map((p) => p.router_name),
});

/** Case-insensitive match on name or note. */
export const matches = (m: { router_name: string; note: string }, text: string) => {
  const t = text.trim().toLowerCase();
  return !t || m.router_name.toLowerCase().includes(t) || m.note.toLowerCase().includes(t);
};
