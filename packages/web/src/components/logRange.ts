import { LIMITS } from '@hublink/contract';
import dayjs, { type Dayjs } from './dayjs';

/** The day format of the log date ranges (the server's start_time and end_time). */
export const DAY_FORMAT = 'YYYY-MM-DD';

/** The default range of the log dialogs: the last LIMITS.logRangeDays days to today (spec 1 §9). */
export const defaultLogRange = (today: Dayjs = dayjs()): [Dayjs, Dayjs] => [today.subtract(LIMITS.logRangeDays, 'day').startOf('day'), today.startOf('day')];
