import { expect, it } from 'vitest';
import { createTestApp } from '../../test/helpers';
import { defineModule } from './module';

it('starts the modules in order when the app is ready and stops them in reverse when it closes', async () => {
  const seen: string[] = [];
  const probe = (name: string) =>
    defineModule({
      name,
      start: async (ctx) => void seen.push(`start ${name} ${ctx.config.instance}`),
      stop: async () => void seen.push(`stop ${name}`),
    });
  const t = await createTestApp('sqlite', { modules: [probe('first'), probe('second')], config: { instance: 'probe' } });
  expect(seen).toEqual(['start first probe', 'start second probe']);
  await t.close();
  expect(seen).toEqual(['start first probe', 'start second probe', 'stop second', 'stop first']);
});
