import type { applyNetwork, ChangeEffect, DataOf, NetworkDrift, PlanAnswer, VersionDiffRow } from '@hublink/contract';

/*
 * What `hublink ops network plan|apply` and `hublink network plan|apply` print (docs/as-code.md), one
 * module for both so the operator and the tenant read a plan alike. Labels and values are the
 * configuration history's, in the console's language; the frame around them is the CLI's English.
 * It imports no more than the contract's types: the tenant's client loads it without the server.
 */

export type ApplyAnswer = DataOf<typeof applyNetwork>;

const shown = (value: string) => (value === '' ? '(none)' : value);
const rowLine = (r: VersionDiffRow) => `  ${r.label}: ${shown(r.a)} → ${shown(r.b)}`;

function memberLines(m: PlanAnswer['members']): string[] {
  const lines = (
    [
      ['added', m.added],
      ['removed', m.removed],
      ['changed', m.changed],
    ] as const
  )
    .filter(([, names]) => names.length > 0)
    .map(([what, names]) => `members ${what} (${names.length}): ${names.join(', ')}`);
  return lines.length > 0 ? lines : ['members: none added, removed or changed'];
}

/** Lost and gained pairs of members and LANs, normally and with each center down. */
function reachText(effect: ChangeEffect | null): string {
  if (effect === null) return 'not compared (a new network)';
  const members = `${effect.member_count} member configuration(s) change`;
  if (effect.reach === null) return `not compared (too many members); ${members}`;
  const lost = effect.reach.filter((r) => !r.gained).length;
  // The list holds the first pairs, losses first: cut short and still holding a gain, it holds every loss.
  const counts = effect.reach.length === effect.reach_count || lost < effect.reach.length ? `${lost} lost, ${effect.reach_count - lost} gained` : `at least ${lost} lost of ${effect.reach_count} changed`;
  return `${counts} (pairs of members and LANs, normally and with each center down); ${members}`;
}

function driftLines(drift: NetworkDrift | null): string[] {
  if (drift === null) return ['drift: no document applied to this network yet'];
  const since = `version ${drift.applied_version} (applied ${drift.applied_time} by ${drift.applied_by})`;
  if (drift.changes.length === 0 && drift.versions.length === 0) return [`drift: none since ${since}`];
  return [
    `drift since ${since}: ${drift.changes.length} field(s) changed outside the document`,
    ...drift.changes.map(rowLine),
    ...drift.versions.map((v) => `  version ${v.version}, ${v.create_time}, ${v.who}: ${v.summary}`),
  ];
}

/** A plan for people: the changed fields (label: before → after), the members, the reachability effect and the drift. */
export function planText(plan: PlanAnswer): string {
  const head = plan.network_number === null ? `new network ${plan.network_name}` : `network ${plan.network_number} ${plan.network_name}`;
  const changes = plan.changes.length === 0 ? ['changes: none (applying it changes nothing)'] : [`changes (${plan.changes.length}):`, ...plan.changes.map(rowLine)];
  return [head, ...changes, ...memberLines(plan.members), `reachability: ${reachText(plan.effect)}`, ...driftLines(plan.drift)].join('\n');
}

/** An apply's answer for people: the version it wrote, or that nothing changed. */
export const applyText = (answer: ApplyAnswer): string =>
  answer.changed ? `network ${answer.network_number}: applied as version ${answer.version}` : `network ${answer.network_number}: no change`;
