import type { OpsCommand } from '../command';

export const saasCommands: OpsCommand[] = [];
