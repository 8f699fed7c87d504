import { saasMessages } from '@hublink/contract';

/** A bandwidth as the list shows it: 0 is a disabled device. */
export const bandwidthText = (mbs: number) => (mbs > 0 ? `${mbs} ${saasMessages.saasBandwidthUnit}` : saasMessages.saasBandwidthDisabled);
