import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFlagstaff, SYSTEM } from '@flagstaff/core';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { sqliteStore } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'flagstaff-backup-writes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SQLite backup while writes go on', () => {
  it('restores to a consistent store: every feature with its events, nothing half-written', async () => {
    const store = await sqliteStore({ filename: join(dir, 'live.db') });
    const flagstaff = await createFlagstaff({ store });
    let written = 0;
    let stop = false;
    // Each round is three commands (three transactions): a feature, a strategy, switched on.
    const writer = (async () => {
      while (!stop) {
        const name = `w-${written}`;
        await flagstaff.features.create(SYSTEM, 'default', { name });
        await flagstaff.strategies.add(
          SYSTEM,
          { project: 'default', feature: name, environment: 'development' },
          {
            name: 'flexibleRollout',
            parameters: { rollout: '50', stickiness: 'default', groupId: name },
          },
        );
        await flagstaff.featureEnvironments.setEnabled(SYSTEM, 'default', name, 'development', true);
        written++;
        // Let the backup's steps in between commands.
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    try {
      await vi.waitFor(() => expect(written).toBeGreaterThanOrEqual(30), { timeout: 20_000 });
      const destination = join(dir, 'backup.db');
      await store.backup?.(destination);
      const atBackup = written;
      await vi.waitFor(() => expect(written).toBeGreaterThanOrEqual(atBackup + 10), { timeout: 20_000 });
      stop = true;
      await writer;

      const restored = await sqliteStore({ filename: destination });
      const features = (await restored.features.list()).map((f) => f.name);
      // The copy holds the commits before one instant: a prefix of the writes, not all of them.
      expect(features.length).toBeGreaterThanOrEqual(30);
      expect(features.length).toBeLessThan(written);
      const created = await restored.events.search({ type: 'feature-created', ascending: true });
      expect(created.map((e) => e.featureName)).toEqual(features.map((_, i) => `w-${i}`));
      expect([...features].sort()).toEqual([...created.map((e) => String(e.featureName))].sort());
      // State and log agree for the last round too: a strategy in the copy has its event, and so on.
      const strategies = await restored.events.search({ type: 'feature-strategy-add' });
      const switched = await restored.events.search({ type: 'feature-environment-enabled' });
      for (const name of features) {
        const stored = await restored.featureEnvironments.get(name, 'development');
        const hasStrategy = (await restored.strategies.list({ featureName: name })).length > 0;
        expect(strategies.some((e) => e.featureName === name)).toBe(hasStrategy);
        expect(switched.some((e) => e.featureName === name)).toBe(stored?.enabled === true);
      }
      // The copy is a whole store: it opens, migrates (nothing to do) and takes writes.
      const again = await createFlagstaff({ store: restored });
      await again.features.create(SYSTEM, 'default', { name: 'after-restore' });
      expect((await again.store.features.list()).length).toBe(features.length + 1);
      await again.close();
    } finally {
      stop = true;
      await writer;
      await flagstaff.close();
    }
  });
});
