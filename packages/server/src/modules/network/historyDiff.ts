import { fmt, M, type NetworkSnapshot, type SnapshotMember, type VersionDiff, type VersionDiffRow } from '@hublink/contract';

/*
 * Two snapshots of a network field by field (issue 18): the network's settings, then each member by
 * name (added, removed, or its settings). Values are shown as text; a row is changed when the texts
 * differ, so what the console marks and what a rollback must restore are the same thing.
 */

type NetworkField = Exclude<keyof NetworkSnapshot, 'members'>;
type MemberField = Exclude<keyof SnapshotMember, 'router_name'>;

const NETWORK_FIELDS: [NetworkField, string][] = [
  ['network_name', M.histFieldName],
  ['network_type', M.histFieldType],
  ['routing_type', M.histFieldRouting],
  ['routing_secondary', M.histFieldSecondary],
  ['dns', M.histFieldDns],
  ['ncp_ciphers', M.histFieldCiphers],
  ['network_fr_id', M.histFieldFr],
  ['mode', M.histFieldMode],
  ['ip_pool', M.histFieldPool],
  ['center_link', M.histFieldCenterLink],
  ['center_link_network', M.histFieldCenterLinkNetwork],
  ['interconnect', M.histFieldInterconnect],
  ['interconnect_network', M.histFieldInterconnectNetwork],
  ['prefixes', M.histFieldPrefixes],
];

const MEMBER_FIELDS: [MemberField, string][] = [
  ['member_type', M.histFieldMemberType],
  ['routing', M.histFieldMemberRouting],
  ['default_route', M.histFieldDefaultRoute],
  ['metric', M.histFieldMetric],
  ['quagga', M.histFieldQuagga],
  ['mode', M.histFieldDialMode],
  ['ov_main', M.histFieldOv],
  ['ov_backup', M.histFieldOv],
  ['gateway', M.histFieldGateway],
  ['fixed_port', M.histFieldFixedPort],
  ['link_centers', M.histFieldLinkCenters],
];

/** A value as one line of text: lists joined, objects as key=value pairs, nothing as ''. */
export function textOf(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(textOf).join(', ');
  if (typeof v === 'object') {
    return Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== '' && x !== null && x !== 0)
      .map(([k, x]) => `${k}=${typeof x === 'object' ? `{${textOf(x)}}` : textOf(x)}`)
      .join(' ');
  }
  return String(v);
}

const memberLabel = (name: string, field?: string) => (field ? `${M.histFieldMember} ${name} · ${field}` : `${M.histFieldMember} ${name}`);

const byName = (s: NetworkSnapshot | null) => new Map((s?.members ?? []).map((m) => [m.router_name.toLowerCase(), m]));

/** Snapshot a (null: none) against b; numbers are the versions shown. */
export function diffSnapshots(a: NetworkSnapshot | null, b: NetworkSnapshot | null, versions: { a: number; b: number } = { a: 0, b: 0 }): VersionDiff {
  const rows: VersionDiffRow[] = [];
  for (const [key, label] of NETWORK_FIELDS) {
    const x = a ? textOf(a[key]) : '';
    const y = b ? textOf(b[key]) : '';
    rows.push({ key: `network.${key}`, label, a: x, b: y, changed: x !== y });
  }
  const ma = byName(a);
  const mb = byName(b);
  const added: string[] = [];
  const removed: string[] = [];
  const changed: string[] = [];
  const keys = [...new Set([...ma.keys(), ...mb.keys()])];
  for (const k of keys) {
    const x = ma.get(k);
    const y = mb.get(k);
    const name = (y ?? x)!.router_name;
    if (!x || !y) {
      (x ? removed : added).push(name);
      rows.push({ key: `member.${name}`, label: memberLabel(name), a: x ? x.member_type : M.histMemberAbsent, b: y ? y.member_type : M.histMemberAbsent, changed: true });
      continue;
    }
    let any = false;
    for (const [field, label] of MEMBER_FIELDS) {
      const tx = textOf(x[field]);
      const ty = textOf(y[field]);
      if (tx !== ty) any = true;
      rows.push({ key: `member.${name}.${field}`, label: memberLabel(name, label), a: tx, b: ty, changed: tx !== ty });
    }
    if (any) changed.push(name);
  }
  return { a: versions.a, b: versions.b, rows, members: { added, removed, changed } };
}

/** How many parts a summary names before it says 等 n 项. */
const SUMMARY_PARTS = 4;

/** The summary of a change from a to b: the settings that changed and the members added, removed or changed. */
export function summaryOf(a: NetworkSnapshot | null, b: NetworkSnapshot): string {
  if (!a) return M.histCreated;
  const d = diffSnapshots(a, b);
  const parts = [...new Set(d.rows.filter((r) => r.changed && r.key.startsWith('network.')).map((r) => r.label))];
  const names = (list: string[]) => list.slice(0, SUMMARY_PARTS).join(M.histListSep) + (list.length > SUMMARY_PARTS ? fmt(M.histMore, { n: list.length }) : '');
  if (d.members.added.length > 0) parts.push(fmt(M.histMembersAdded, { names: names(d.members.added) }));
  if (d.members.removed.length > 0) parts.push(fmt(M.histMembersRemoved, { names: names(d.members.removed) }));
  if (d.members.changed.length > 0) parts.push(fmt(M.histMembersChanged, { names: names(d.members.changed) }));
  if (parts.length === 0) return M.histNoChange;
  return parts.slice(0, SUMMARY_PARTS).join(M.histPartSep) + (parts.length > SUMMARY_PARTS ? fmt(M.histMore, { n: parts.length }) : '');
}

/** The first row that differs, or null when the snapshots are the same setting for setting. */
export const firstDifference = (a: NetworkSnapshot, b: NetworkSnapshot): VersionDiffRow | null => diffSnapshots(a, b).rows.find((r) => r.changed) ?? null;
