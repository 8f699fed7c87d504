import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    conditionTimeoutMs: number;
  }
}

// Every waitFor/findBy waits for its condition this long (set in vitest.config.ts for the whole suite).
configure({ asyncUtilTimeout: inject('conditionTimeoutMs') });

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
