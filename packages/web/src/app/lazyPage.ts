import { lazy as reactLazy, type ComponentType, type LazyExoticComponent } from 'react';
import { reloadForNewVersion } from './reloadForNewVersion';

type PageModule<T> = { default: T };

/** Never settles: the page keeps showing its loading state until the reload replaces it. */
const whileReloading = <T>() => new Promise<T>(() => {});

/**
 * React's lazy() for route pages, reloading the page once when the page's chunk cannot be loaded
 * (see reloadForNewVersion) instead of failing to the error page at once. A cancelled
 * `vite:preloadError` makes the import resolve to nothing: the reload is under way then too.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any props, as React's own lazy() takes
export function lazy<T extends ComponentType<any>>(load: () => Promise<PageModule<T>>): LazyExoticComponent<T> {
  return reactLazy(() =>
    load().then(
      (module) => module ?? whileReloading<PageModule<T>>(),
      (error: unknown) => (reloadForNewVersion() ? whileReloading<PageModule<T>>() : Promise.reject(error)),
    ),
  );
}
