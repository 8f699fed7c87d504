/**
 * The POP regions (spec 2 §2: South China, North China, East China, International), by the value the
 * ticket and POP calls carry and the name the console shows; the POP config page has one column each.
 */
export const POP_REGIONS = [
  { value: 'south', name: '华南' },
  { value: 'north', name: '华北' },
  { value: 'east', name: '华东' },
  { value: 'intl', name: '国际' },
] as const;
export type PopRegion = (typeof POP_REGIONS)[number]['value'];
export const POP_REGION_VALUES = POP_REGIONS.map((r) => r.value) as [PopRegion, ...PopRegion[]];
export const popRegionName = (value: string) => POP_REGIONS.find((r) => r.value === value)?.name ?? value;

/** Work order type 1001 is the access-POP ticket (spec 2 §2); status 1 pending, 2 in progress, 3 completed, 4 cancelled (§4). */
export const TICKET_TYPE_ACCESS_POP = 1001;
export const TICKET_STATUS = { pending: 1, inProgress: 2, completed: 3, cancelled: 4 } as const;
