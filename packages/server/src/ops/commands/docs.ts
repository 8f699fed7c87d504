import type { OpsCommand } from '../command';

export const docCommands: OpsCommand[] = [];
