import type { OpsCommand } from '../command';

export const serviceCommands: OpsCommand[] = [];
