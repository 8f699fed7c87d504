/** The reference device agent and simulator arrive with the device gateway issue. */
export const AGENT_PROTOCOL_VERSION = 1;
