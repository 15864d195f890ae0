import { beforeEach, describe, expect, it } from 'vitest';
import type { Flagstaff } from '../../flagstaff.js';
import { alice, createTestFlagstaff, userCaller } from '../test-support.js';

let flagstaff: Flagstaff;
const prod = { project: 'default', feature: 'f1', environment: 'production' };

beforeEach(async () => {
  ({ flagstaff } = await createTestFlagstaff());
  await flagstaff.features.create(alice, 'default', { name: 'f1' });
});

const latest = async (type: Parameters<Flagstaff['store']['events']['search']>[0]['type']) => {
  const [event] = await flagstaff.store.events.search({ type, limit: 1 });
  if (!event) throw new Error(`no ${type} event`);
  return event.id;
};

describe('revert from history', () => {
  it('restores the previous strategy, through the direct command and its event', async () => {
    const s = await flagstaff.strategies.add(alice, prod, { name: 'default', title: 'first' });
    await flagstaff.strategies.update(alice, prod, s.id, { name: 'default', title: 'second' });
    const result = await flagstaff.changeRequests.revert(alice, await latest('feature-strategy-update'));
    expect(result).toMatchObject({ applied: true, change: { action: 'updateStrategy' } });
    expect((await flagstaff.store.strategies.get(s.id))?.title).toBe('first');
    const [event] = await flagstaff.store.events.search({ limit: 1 });
    expect(event).toMatchObject({
      type: 'feature-strategy-update',
      data: { title: 'first' },
      preData: { title: 'second' },
    });
  });

  it('refuses when later changes make it ambiguous, changing nothing', async () => {
    const s = await flagstaff.strategies.add(alice, prod, { name: 'default', title: 'first' });
    await flagstaff.strategies.update(alice, prod, s.id, { name: 'default', title: 'second' });
    const event = await latest('feature-strategy-update');
    await flagstaff.strategies.update(alice, prod, s.id, { name: 'default', title: 'third' });
    await expect(flagstaff.changeRequests.revert(alice, event)).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('changed again since'),
    });
    expect((await flagstaff.store.strategies.get(s.id))?.title).toBe('third');
    await flagstaff.featureEnvironments.setEnabled(alice, 'default', 'f1', 'production', true);
    const enabled = await latest('feature-environment-enabled');
    await flagstaff.featureEnvironments.setEnabled(alice, 'default', 'f1', 'production', false);
    await expect(flagstaff.changeRequests.revert(alice, enabled)).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('undoes additions, removals, switching and metadata', async () => {
    const s = await flagstaff.strategies.add(alice, prod, { name: 'default' });
    await flagstaff.strategies.delete(alice, prod, s.id);
    await flagstaff.changeRequests.revert(alice, await latest('feature-strategy-remove'));
    const [back] = await flagstaff.store.strategies.list({ featureName: 'f1', environment: 'production' });
    expect(back?.name).toBe('default');
    await flagstaff.changeRequests.revert(alice, await latest('feature-strategy-add'));
    expect(await flagstaff.store.strategies.list({ featureName: 'f1', environment: 'production' })).toEqual(
      [],
    );
    await flagstaff.features.update(alice, 'default', 'f1', { description: 'new' });
    await flagstaff.changeRequests.revert(alice, await latest('feature-metadata-updated'));
    expect((await flagstaff.store.features.get('f1'))?.description).toBe(null);
  });

  it('goes into a change request where the environment requires one', async () => {
    const s = await flagstaff.strategies.add(alice, prod, { name: 'default', title: 'first' });
    await flagstaff.strategies.update(alice, prod, s.id, { name: 'default', title: 'second' });
    await flagstaff.changeRequests.setConfig(alice, 'default', 'production', { changeRequestsEnabled: true });
    const editor = userCaller(21, 'Editor');
    const result = await flagstaff.changeRequests.revert(editor, await latest('feature-strategy-update'));
    expect(result.applied).toBe(false);
    if (result.applied) return;
    expect(result.changeRequest).toMatchObject({
      state: 'Draft',
      features: [
        { name: 'f1', changes: [{ action: 'updateStrategy', payload: { id: s.id, title: 'first' } }] },
      ],
    });
    expect((await flagstaff.store.strategies.get(s.id))?.title).toBe('second');
  });

  it('answers NOT_FOUND for unknown events and VALIDATION for events it cannot revert', async () => {
    await expect(flagstaff.changeRequests.revert(alice, 99_999)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(
      flagstaff.changeRequests.revert(alice, await latest('feature-created')),
    ).rejects.toMatchObject({
      code: 'VALIDATION',
    });
  });
});
