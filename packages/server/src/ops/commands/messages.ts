import type { OpsCommand } from '../command';

export const messageCommands: OpsCommand[] = [];
