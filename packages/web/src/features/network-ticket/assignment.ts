/** Members assigned to the chosen regions: region value → router_names; a member is in one region at most. */
export type Assignment = Record<string, string[]>;

/** How many members are out of the pool. */
export const usedCount = (a: Assignment) => Object.values(a).reduce((n, names) => n + names.length, 0);

/** The members a region's list may offer: the pool plus its own, never another region's. */
export function offeredTo(region: string, members: readonly string[], a: Assignment): string[] {
  const elsewhere = new Set(Object.entries(a).flatMap(([r, names]) => (r === region ? [] : names)));
  return members.filter((m) => !elsewhere.has(m));
}

/** The region's list becomes `names` (the rest of what it offered goes back to the pool). */
export const withRegion = (a: Assignment, region: string, names: string[]): Assignment => ({ ...a, [region]: names });

/** pop_conf of the payload: every chosen region, with its members (an empty list for none). */
export const popConfOf = (regions: readonly string[], a: Assignment): Assignment => Object.fromEntries(regions.map((r) => [r, a[r] ?? []]));
