import '@testing-library/jest-dom/vitest';
import { cleanup, configure, getConfig } from '@testing-library/react';
import { afterEach, inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    conditionTimeoutMs: number;
  }
}

// Every waitFor/findBy waits for its condition this long (set in vitest.config.ts for the whole suite).
configure({ asyncUtilTimeout: inject('conditionTimeoutMs') });

/**
 * After every findBy/waitFor and user-event call, React gets a few turns of the event loop to finish
 * what it scheduled. Testing Library only waits one timer, and on a loaded machine that timer can come
 * before React's passive effects: a table showing its new rows still had antd's loading blur (set off
 * in an effect, `pointer-events: none`), and a click on a row failed. React's scheduler runs its work
 * in setImmediate tasks, so turns of setImmediate let it through.
 */
const REACT_TURNS = 3;
const reactTurn = () => new Promise<void>((resolve) => (typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0)));
const rtlAsyncWrapper = getConfig().asyncWrapper;
configure({
  asyncWrapper: (cb) =>
    rtlAsyncWrapper(async () => {
      const result: unknown = await cb();
      for (let i = 0; i < REACT_TURNS; i++) await reactTurn();
      return result;
    }),
});

// A few web tests run in node (`// @vitest-environment node`: the lint checks); the rest is for jsdom.
const inBrowser = typeof window !== 'undefined';

if (inBrowser) {
  afterEach(() => {
    cleanup();
    sessionStorage.clear();
    localStorage.clear();
  });

  // antd reads these; jsdom does not have them.
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
  window.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}
