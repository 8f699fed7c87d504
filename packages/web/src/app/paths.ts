/** Paths the shell itself goes to. */
export const HOME_PATH = '/';
export const DEFAULT_PATH = '/dashboard';
export const LOGIN_PATH = '/login';
export const NOT_FOUND_PATH = '/404/index';

/** '/account/' and '/account' are the same page. */
export const normalizePath = (pathname: string) => (pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname);
