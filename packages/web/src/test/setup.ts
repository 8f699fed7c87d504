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
  // jsdom computes a style by matching every rule of every sheet against the element: with antd's
  // ~2,000 rules some 30 ms a call, and Testing Library's role queries ask it for each element and its
  // ancestors at every poll. jsdom lays nothing out, so of antd's styles only those that hide an element
  // or refuse the pointer mean anything to a test: every other rule is dropped from a sheet as it
  // arrives, before the next style is computed (takeRecords reads the document's changes at once).
  const computeStyle = window.getComputedStyle.bind(window);
  const changes = new MutationObserver(() => {});
  changes.observe(document, { subtree: true, childList: true, characterData: true });
  const pruned = new WeakSet<CSSStyleSheet>();
  window.getComputedStyle = (element, pseudo) => {
    if (changes.takeRecords().length > 0) {
      for (const sheet of Array.from(document.styleSheets)) {
        if (pruned.has(sheet)) continue;
        keepRulesThatHide(sheet);
        pruned.add(sheet);
      }
    }
    return computeStyle(element, pseudo);
  };

  window.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}

/** What a test can tell from a computed style in jsdom: whether it shows, and whether it takes the pointer. */
const PROPERTIES_THAT_HIDE = ['display', 'visibility', 'opacity', 'pointer-events'];

function keepRulesThatHide(list: CSSStyleSheet | CSSGroupingRule) {
  for (let i = list.cssRules.length - 1; i >= 0; i--) {
    const rule = list.cssRules[i]!;
    if (rule instanceof CSSStyleRule) {
      if (!PROPERTIES_THAT_HIDE.some((p) => rule.style.getPropertyValue(p) !== '')) list.deleteRule(i);
    } else if (rule instanceof CSSGroupingRule) {
      keepRulesThatHide(rule);
    } else {
      list.deleteRule(i);
    }
  }
}
