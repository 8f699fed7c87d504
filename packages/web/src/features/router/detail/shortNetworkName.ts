import { LIMITS } from '@hublink/contract';

/** A network name as status cards show it: cut after LIMITS.statusNetworkName characters plus '…'. */
export const shortNetworkName = (name: string) => {
  const chars = [...name];
  return chars.length > LIMITS.statusNetworkName ? `${chars.slice(0, LIMITS.statusNetworkName).join('')}…` : name;
};
