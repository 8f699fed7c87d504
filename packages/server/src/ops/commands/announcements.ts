import type { OpsCommand } from '../command';

export const announcementCommands: OpsCommand[] = [];
