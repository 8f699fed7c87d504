import type { OpsCommand } from '../command';

export const popCommands: OpsCommand[] = [];
