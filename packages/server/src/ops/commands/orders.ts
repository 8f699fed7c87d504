import type { OpsCommand } from '../command';

export const orderCommands: OpsCommand[] = [];
