/** Paths the shell itself goes to. */
export const HOME_PATH = '/';
export const DEFAULT_PATH = '/dashboard';
export const LOGIN_PATH = '/login';
export const NOT_FOUND_PATH = '/404/index';
export const SELF_SERVICE_PATH = '/self';

/** Where members sign in for their own profiles; with the tenant's ID code the page offers its sign-in sources too. */
export const selfPageUrl = (code = '') => `${window.location.origin}${SELF_SERVICE_PATH}${code ? `?code=${encodeURIComponent(code)}` : ''}`;

/** '/account/' and '/account' are the same page. */
export const normalizePath = (pathname: string) => (pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname);
