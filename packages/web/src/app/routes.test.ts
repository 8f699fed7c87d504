import { describe, expect, it } from 'vitest';
import { ROUTES } from './routes';

/**
 * The screens still to be built, by the open issue that builds them; each shows '该功能即将上线' until
 * then. An issue that builds one gives its route a page and removes it here.
 */
const PENDING: Record<string, readonly string[]> = {
};

describe('route table', () => {
  it('shows the coming-soon placeholder only for the screens of open issues', () => {
    const placeholders = ROUTES.filter((r) => !r.page).map((r) => r.path);
    expect(placeholders.toSorted()).toEqual(Object.values(PENDING).flat().toSorted());
  });

  it('lists every path once', () => {
    const paths = ROUTES.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
  });
});
