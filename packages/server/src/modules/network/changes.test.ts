import { PREVIEWABLE_PATHS } from '@hublink/contract';
import { expect, it } from 'vitest';
import { SETTINGS_CHANGES } from './changes';

// The contract names the settings calls a preview may run; this table runs them. A previewable call
// without an entry would answer 无法预览此设置 in its dialog, an entry twice would register a route twice.
it('runs every previewable settings call, each once', () => {
  const paths = SETTINGS_CHANGES.map((c) => c.endpoint.path);
  expect(new Set(paths).size).toBe(paths.length);
  expect([...paths].sort()).toEqual([...PREVIEWABLE_PATHS].sort());
});
