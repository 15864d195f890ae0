import { beforeEach, describe, expect, it } from 'vitest';
import type { Flagstaff } from '../../flagstaff.js';
import { alice, createTestFlagstaff } from '../test-support.js';
import { validateEnvironmentName } from './environment-operations.js';

let flagstaff: Flagstaff;
beforeEach(async () => {
  ({ flagstaff } = await createTestFlagstaff());
});

describe('validating environment names', () => {
  it('passes a free name create would accept, and writes nothing', async () => {
    const latest = await flagstaff.store.events.latestId();
    await expect(flagstaff.environments.validateName(alice, { name: 'qa.eu-1~b' })).resolves.toBeUndefined();
    expect(await flagstaff.store.events.latestId()).toBe(latest);
    expect((await flagstaff.environments.list(alice)).map((e) => e.name)).not.toContain('qa.eu-1~b');
  });

  it('CONFLICT for a taken name, seeded or created', async () => {
    await expect(flagstaff.environments.validateName(alice, { name: 'production' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'An environment named "production" already exists.',
    });
    await flagstaff.environments.create(alice, { name: 'qa', type: 'test' });
    await expect(flagstaff.environments.validateName(alice, { name: 'qa' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
  });

  it('VALIDATION naming "name" for a name create would refuse, or none', async () => {
    for (const body of [{ name: 'has space' }, { name: '' }, { name: 'x'.repeat(101) }, { name: 7 }, {}])
      await expect(flagstaff.run.unknown(validateEnvironmentName, alice, body)).rejects.toMatchObject({
        code: 'VALIDATION',
        message: expect.stringContaining('"name"'),
      });
    await expect(flagstaff.run.unknown(validateEnvironmentName, alice, undefined)).rejects.toMatchObject({
      code: 'VALIDATION',
    });
    await expect(
      flagstaff.environments.create(alice, { name: 'has space', type: 'test' }),
    ).rejects.toMatchObject({
      code: 'VALIDATION',
    });
  });
});
