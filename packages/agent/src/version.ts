/** The agent's own version, sent in every hello. */
export const AGENT_VERSION = '0.1.0';
