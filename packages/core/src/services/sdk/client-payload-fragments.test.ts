import { gunzipSync, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { SYSTEM } from '../../auth/caller.js';
import { createFlagstaff, type Flagstaff } from '../../flagstaff.js';
import { createMemoryStore } from '../../memory/index.js';
import type { Store } from '../../ports/store.js';
import { alice } from '../test-support.js';
import { loadClientFeatures } from './client-features-snapshot.js';
import type { PayloadBytes } from './client-payloads.js';

const ENV = 'development';
const FEATURES = 300;
const at = (feature: string) => ({ project: 'default', feature, environment: ENV });
const name = (i: number) => `frag-${String(i).padStart(4, '0')}`;
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');
const joined = (bytes: PayloadBytes): Buffer =>
  Buffer.concat(bytes instanceof Uint8Array ? [bytes] : (bytes as readonly Uint8Array[]));

interface DeltaEvent {
  type: string;
  eventId: number;
  feature?: { name: string };
  featureName?: string;
  features?: { name: string }[];
}

/** What an SDK holds after applying delta events: features by name. */
function apply(held: Map<string, unknown>, events: readonly DeltaEvent[]): void {
  for (const event of events) {
    if (event.type === 'hydration') {
      held.clear();
      for (const f of event.features ?? []) held.set(f.name, f);
    } else if (event.type === 'feature-updated' && event.feature) held.set(event.feature.name, event.feature);
    else if (event.type === 'feature-removed' && event.featureName) held.delete(event.featureName);
  }
}

describe('client payloads assembled from per-feature fragments', () => {
  it('equal a fresh full read, byte for byte, after every kind of change; deltas reach the same state', async () => {
    const store = createMemoryStore();
    const f = await createFlagstaff({ store });
    // A second service over the same store reads everything afresh each time: the reference. Its
    // close must leave the shared store open.
    const shared: Store = Object.assign(Object.create(store) as Store, { close: async () => {} });
    const fresh = async (): Promise<Flagstaff> => createFlagstaff({ store: shared });
    for (let i = 0; i < FEATURES; i++) {
      await f.features.create(alice, 'default', { name: name(i), description: `feature ${i}` });
      if (i % 3 === 0) await f.strategies.add(alice, at(name(i)), { name: 'default' });
      if (i % 2 === 0) await f.featureEnvironments.setEnabled(alice, 'default', name(i), ENV, true);
    }
    await f.projects.create(alice, { id: 'other', name: 'Other', environments: [ENV, 'production'] });
    await f.features.create(alice, 'other', { name: 'elsewhere' });
    const segment = await f.segments.create(alice, { name: 'seg', constraints: [] });

    const held = new Map<string, unknown>();
    const hydration = await f.client.delta(SYSTEM, {}, null);
    if (hydration.kind !== 'events') throw new Error('expected a hydration');
    apply(held, JSON.parse(text(hydration.payload.bytes)).events);
    let revision = hydration.revision;

    const step = async (label: string, change: () => Promise<unknown>) => {
      await change();
      // The stream's path first (a delta from the last revision), then the full payload.
      const delta = await f.client.delta(SYSTEM, {}, revision);
      const payload = await f.client.featuresPayload(SYSTEM);
      const assembled = text(payload.bytes);
      // Its gzip form, from compressed blocks kept across revisions, is one valid gzip member of it.
      const gzipped = joined(await payload.encoded('gzip'));
      expect(text(gunzipSync(gzipped)), `${label}: gzip`).toBe(assembled);
      expect(text(inflateRawSync(gzipped.subarray(10, -8))), `${label}: one member`).toBe(assembled);
      // A hydration at the same revision holds the payload's feature list itself (the same blocks of
      // memory, not a copy); joined or gzipped, it carries the payload's features and segments.
      const hydration = await f.client.delta(SYSTEM, {}, null);
      if (hydration.kind !== 'events') throw new Error('expected a hydration');
      const blocks = payload.pieces.slice(1, -1);
      expect(blocks.length, `${label}: blocks`).toBeGreaterThan(1);
      expect(hydration.payload.pieces.slice(1, -1), `${label}: shared blocks`).toEqual(blocks);
      expect(
        blocks.every((block, i) => hydration.payload.pieces[i + 1] === block),
        `${label}: the same buffers`,
      ).toBe(true);
      const hydrationText = text(hydration.payload.bytes);
      expect(hydration.payload.size).toBe(Buffer.byteLength(hydrationText));
      expect(
        text(gunzipSync(joined(await hydration.payload.encoded('gzip')))),
        `${label}: hydration gzip`,
      ).toBe(hydrationText);
      const [event] = JSON.parse(hydrationText).events;
      const full = JSON.parse(assembled);
      expect([event.features, event.segments], `${label}: hydration`).toEqual([full.features, full.segments]);
      const reference = await fresh();
      try {
        const expected = text((await reference.client.featuresPayload(SYSTEM)).bytes);
        expect(assembled, label).toBe(expected);
        if (delta.kind === 'events') {
          apply(held, JSON.parse(text(delta.payload.bytes)).events);
          revision = delta.revision;
        }
        const features = (JSON.parse(expected) as { features: { name: string }[] }).features;
        expect(new Map(features.map((x) => [x.name, x])), label).toEqual(held);
        // The evaluator, compiled on demand, follows too.
        const compiled = await f.client.evaluator(ENV);
        const compiledFresh = await reference.client.evaluator(ENV);
        for (const x of [name(0), name(1), name(7), 'elsewhere'])
          expect(compiled.isEnabled(x, { userId: 'u' }), `${label}: ${x}`).toBe(
            compiledFresh.isEnabled(x, { userId: 'u' }),
          );
      } finally {
        await reference.close();
      }
    };

    let strategyId = '';
    await step('toggle', () => f.featureEnvironments.setEnabled(alice, 'default', name(1), ENV, true));
    await step('strategy added', async () => {
      strategyId = (
        await f.strategies.add(alice, at(name(1)), { name: 'userWithId', parameters: { userIds: 'u' } })
      ).id;
    });
    await step('strategy updated', () =>
      f.strategies.update(alice, at(name(1)), strategyId, { name: 'default', disabled: true }),
    );
    await step('variants', () =>
      f.featureEnvironments.setVariants(alice, 'default', name(7), ENV, [
        { name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default' },
      ]),
    );
    await step('metadata', () => f.features.update(alice, 'default', name(7), { description: 'changed' }));
    await step('stale', () => f.features.setStale(alice, 'default', [name(8)], true));
    await step('dependency', () => f.dependencies.add(alice, 'default', name(9), { feature: name(0) }));
    await step('parent changed', () =>
      f.featureEnvironments.setEnabled(alice, 'default', name(0), ENV, false),
    );
    await step('created in the middle', () => f.features.create(alice, 'default', { name: 'frag-0150a' }));
    await step('created first', () => f.features.create(alice, 'default', { name: 'aaa-first' }));
    await step('archived', () => f.features.archive(alice, 'default', [name(20)]));
    await step('revived', () => f.features.revive(alice, 'default', [name(20)]));
    await step('deleted', async () => {
      await f.features.archive(alice, 'default', [name(21)]);
      await f.features.deleteArchived(alice, 'default', [name(21)]);
    });
    await step('strategy deleted', () => f.strategies.delete(alice, at(name(1)), strategyId));
    await step('segment used', () =>
      f.strategies.add(alice, at(name(3)), { name: 'default', segments: [segment.id] }),
    );
    await step('segment changed', () =>
      f.segments.update(alice, segment.id, {
        name: 'seg',
        constraints: [{ contextName: 'userId', operator: 'IN', values: ['u'] }],
      }),
    );
    await step('environment left by a project', () => f.projects.removeEnvironment(alice, 'other', ENV));
    // A full load read in rounds of a few features equals one read at once.
    const whole = await loadClientFeatures(store, ENV);
    expect(whole.features.length).toBeGreaterThan(FEATURES);
    expect(await loadClientFeatures(store, ENV, { featuresPerRead: 7 })).toEqual(whole);
    await step('many at once', async () => {
      for (let i = 100; i < 160; i++)
        await f.featureEnvironments.setEnabled(alice, 'default', name(i), ENV, i % 2 === 1);
    });
    await f.close();
  });
});
