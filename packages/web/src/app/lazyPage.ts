import { createElement, lazy as reactLazy, useState, type ComponentProps, type ComponentType } from 'react';
import { reloadForNewVersion } from './reloadForNewVersion';

type PageModule<T> = { default: T };

/** Never settles: the page keeps showing its loading state until the reload replaces it. */
const whileReloading = <T>() => new Promise<T>(() => {});

/**
 * React's lazy() for route pages, reloading the page once when the page's chunk cannot be loaded
 * (see reloadForNewVersion) instead of failing to the error page at once. A cancelled
 * `vite:preloadError` makes the import resolve to nothing: the reload is under way then too.
 *
 * Code that is already here (preloaded with its route: app/router.tsx) renders at once. React's lazy
 * would suspend once even then, and React shows what a suspended boundary holds at the earliest 300 ms
 * after it last showed a loading state: each lazy piece of a first page cost up to 300 ms.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any props, as React's own lazy() takes
export function lazy<T extends ComponentType<any>>(load: () => Promise<PageModule<T>>): ComponentType<ComponentProps<T>> & Preloadable {
  let loaded: T | undefined;
  let loading: Promise<PageModule<T>> | undefined;
  const start = () =>
    (loading ??= load().then(
      (module) => {
        if (!module) return whileReloading<PageModule<T>>();
        loaded = module.default;
        return module;
      },
      (error: unknown) => (reloadForNewVersion() ? whileReloading<PageModule<T>>() : Promise.reject(error)),
    ));
  const Suspending = reactLazy(start);
  function LazyComponent(props: ComponentProps<T>) {
    // Chosen once per mount: switching from the suspending one to the loaded one would remount the page.
    const [Component] = useState<ComponentType<ComponentProps<T>>>(() => loaded ?? (Suspending as ComponentType<ComponentProps<T>>));
    return createElement(Component, props);
  }
  return Object.assign(LazyComponent, {
    preload: () => void start().catch(() => undefined),
    ready: () => start().then(() => undefined),
  });
}

/** A lazy page or layout whose code can be asked for before it renders (the route matched: app/router.tsx). */
export interface Preloadable {
  preload(): void;
  /** Settles once the code is here (never, while a reload for a new version is under way). */
  ready(): Promise<void>;
}

/** Starts loading a lazy component's code; nothing for one that is not lazy. */
export const preload = (component: unknown) => (component as Partial<Preloadable> | undefined)?.preload?.();

/** Settles when a lazy component's code is here (at once for one that is not lazy). */
export const whenLoaded = (component: unknown): Promise<void> => (component as Partial<Preloadable> | undefined)?.ready?.() ?? Promise.resolve();
