import { describe, expect, test } from 'vitest';
import type { NewChangeRequest } from '../domain/change-request.js';
import { at, type StoreFactory, useStore } from './fixtures.js';

const request = (over: Partial<NewChangeRequest> = {}): NewChangeRequest => ({
  project: 'alpha',
  environment: 'production',
  title: 'Change request',
  state: 'Draft',
  createdBy: { id: 1, username: 'ann' },
  createdAt: at(1),
  updatedAt: at(1),
  minApprovals: 1,
  changes: [
    {
      id: 1,
      feature: 'f1',
      action: 'updateEnabled',
      payload: { enabled: true },
      base: { enabled: false },
      createdBy: { id: 1, username: 'ann' },
      createdAt: at(1),
    },
  ],
  approvals: [],
  rejections: [],
  comments: [],
  reviewers: [],
  schedule: null,
  failure: null,
  ...over,
});

/** Change requests and their per-environment settings. */
export function describeChangeRequestContract(open: StoreFactory): void {
  describe('change requests', () => {
    const store = useStore(open);

    test('settings are kept per project environment and replaced on save', async () => {
      const repo = () => store().changeRequests;
      expect(await repo().listSettings('alpha')).toEqual([]);
      await repo().saveSetting({
        project: 'alpha',
        environment: 'production',
        enabled: true,
        requiredApprovals: 2,
      });
      await repo().saveSetting({
        project: 'alpha',
        environment: 'dev',
        enabled: false,
        requiredApprovals: 1,
      });
      await repo().saveSetting({
        project: 'beta',
        environment: 'production',
        enabled: true,
        requiredApprovals: 1,
      });
      await repo().saveSetting({
        project: 'alpha',
        environment: 'production',
        enabled: true,
        requiredApprovals: 3,
      });
      expect(await repo().listSettings('alpha')).toEqual([
        { project: 'alpha', environment: 'dev', enabled: false, requiredApprovals: 1 },
        { project: 'alpha', environment: 'production', enabled: true, requiredApprovals: 3 },
      ]);
    });

    test('requests round-trip whole, get ids never reused, and list newest first by filter', async () => {
      const repo = () => store().changeRequests;
      const first = await repo().insert(request());
      const second = await repo().insert(
        request({ state: 'In review', createdBy: { id: 2, username: 'bob' }, environment: 'dev' }),
      );
      const third = await repo().insert(request({ project: 'beta', state: 'Applied' }));
      expect(new Set([first, second, third]).size).toBe(3);
      expect(await repo().get(first)).toEqual({ ...request(), id: first });
      expect(await repo().get(9999)).toBeNull();
      expect((await repo().list({ project: 'alpha' })).map((r) => r.id)).toEqual([second, first]);
      expect((await repo().list({ states: ['In review', 'Applied'] })).map((r) => r.id)).toEqual([
        third,
        second,
      ]);
      expect((await repo().list({ states: [] })).length).toBe(0);
      expect((await repo().list({ createdByUserId: 2 })).map((r) => r.id)).toEqual([second]);
      expect((await repo().list({ project: 'alpha', environment: 'production' })).map((r) => r.id)).toEqual([
        first,
      ]);
      expect(await repo().delete(first)).toBe(true);
      expect(await repo().delete(first)).toBe(false);
      const fourth = await repo().insert(request());
      expect(fourth).toBeGreaterThan(third);
    });

    test('update replaces a request; due lists pending schedules only, oldest due first', async () => {
      const repo = () => store().changeRequests;
      const schedule = (minutes: number, status: 'pending' | 'suspended' = 'pending') => ({
        scheduledAt: at(minutes),
        status,
        scheduledBy: { id: 2, username: 'bob' },
      });
      const late = await repo().insert(request({ state: 'Scheduled', schedule: schedule(30) }));
      const early = await repo().insert(request({ state: 'Scheduled', schedule: schedule(10) }));
      const suspended = await repo().insert(
        request({ state: 'Scheduled', schedule: schedule(5, 'suspended') }),
      );
      await repo().insert(request({ state: 'Scheduled', schedule: schedule(120) }));
      expect((await repo().listDue(at(60))).map((r) => r.id)).toEqual([early, late]);
      expect((await repo().listDue(at(10))).map((r) => r.id)).toEqual([early]);
      const applied = { ...(await repo().get(early))!, state: 'Applied' as const, title: 'Done' };
      expect(await repo().update(applied)).toBe(true);
      expect(await repo().get(early)).toEqual(applied);
      expect((await repo().listDue(at(60))).map((r) => r.id)).toEqual([late]);
      expect(await repo().update({ ...applied, id: 9999 })).toBe(false);
      expect((await repo().get(suspended))?.schedule?.status).toBe('suspended');
      await expect(
        store().transaction(async (tx) => {
          await tx.changeRequests.update({ ...applied, title: 'rolled back' });
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect((await repo().get(early))?.title).toBe('Done');
    });
  });
}
