/** The POP point config page of a network. */
export const popEditPath = (networkNumber: string) => `/network/pop_edit?network_number=${encodeURIComponent(networkNumber)}`;
