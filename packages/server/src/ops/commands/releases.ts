import type { OpsCommand } from '../command';

export const releaseCommands: OpsCommand[] = [];
