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
export function lazy<T extends ComponentType<any>>(load: () => Promise<PageModule<T>>): LazyExoticComponent<T> & Preloadable {
  let loading: Promise<PageModule<T>> | undefined;
  const start = () =>
    (loading ??= load().then(
      (module) => module ?? whileReloading<PageModule<T>>(),
      (error: unknown) => (reloadForNewVersion() ? whileReloading<PageModule<T>>() : Promise.reject(error)),
    ));
  return Object.assign(reactLazy(start), { preload: () => void start().catch(() => undefined) });
}

/** A lazy page or layout whose code can be asked for before it renders (the route matched: app/router.tsx). */
export interface Preloadable {
  preload(): void;
}

/** Starts loading a lazy component's code; nothing for one that is not lazy. */
export const preload = (component: unknown) => (component as Partial<Preloadable> | undefined)?.preload?.();
