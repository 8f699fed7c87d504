import type { OpsCommand } from '../command';

export const ticketCommands: OpsCommand[] = [];
