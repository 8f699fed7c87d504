import { authMessages } from './auth';
import { commonMessages } from './common';
import { shellMessages } from './shell';

/**
 * The texts any route may show: the shared ones, the console's frame (top bar, menu, route titles,
 * footer) and signing in. What the sign-in route carries; a page adds its own area's object.
 */
export const BM = { ...commonMessages, ...shellMessages, ...authMessages } as const;
