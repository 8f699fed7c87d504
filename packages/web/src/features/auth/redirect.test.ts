import { describe, expect, it } from 'vitest';
import { safeRedirect } from './redirect';

describe('safeRedirect', () => {
  it('keeps a path of this site, with its query', () => {
    expect(safeRedirect('/network/detail?network_number=N1')).toBe('/network/detail?network_number=N1');
  });

  it.each([null, undefined, '', 'https://evil.example', '//evil.example/x', '/\\evil.example', 'network/lists', '/\t/evil.example', 'javascript:alert(1)'])(
    'falls back to / for %s',
    (v) => {
      expect(safeRedirect(v)).toBe('/');
    },
  );
});
