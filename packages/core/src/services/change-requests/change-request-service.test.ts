import { beforeEach, describe, expect, it } from 'vitest';
import type { Flagstaff } from '../../flagstaff.js';
import { alice, createTestFlagstaff, eventTypesSince, tokenCaller, userCaller } from '../test-support.js';

let flagstaff: Flagstaff;
const prod = { project: 'default', feature: 'f1', environment: 'production' };
// Root Editors hold every project permission in open projects, approving included.
const ann = userCaller(11, 'Editor');
const bob = userCaller(12, 'Editor');
const carl = userCaller(13, 'Editor');
const viewer = userCaller(14, 'Viewer');

const crs = () => flagstaff.changeRequests;
const enable = (requiredApprovals = 1) =>
  crs().setConfig(alice, 'default', 'production', { changeRequestsEnabled: true, requiredApprovals });
const toggle = (enabled: boolean) => ({ feature: 'f1', action: 'updateEnabled', payload: { enabled } });

beforeEach(async () => {
  ({ flagstaff } = await createTestFlagstaff());
  await flagstaff.features.create(alice, 'default', { name: 'f1' });
  await flagstaff.strategies.add(alice, prod, { name: 'default' });
});

/** A request of ann's sent to review, with one change. */
async function inReview(changes: unknown = toggle(true)) {
  const draft = await crs().addChanges(ann, 'default', 'production', changes);
  await crs().changeState(ann, 'default', draft.id, { state: 'In review' });
  return draft.id;
}

describe('configuration', () => {
  it('reports every project environment, stores a setting, and shows it in the project views', async () => {
    expect(await crs().getConfig(alice, 'default')).toEqual([
      { environment: 'development', type: 'development', changeRequestEnabled: false, requiredApprovals: 1 },
      { environment: 'production', type: 'production', changeRequestEnabled: false, requiredApprovals: 1 },
    ]);
    const before = await flagstaff.store.events.latestId();
    await enable(2);
    expect((await crs().getConfig(alice, 'default'))[1]).toMatchObject({
      changeRequestEnabled: true,
      requiredApprovals: 2,
    });
    expect(await eventTypesSince(flagstaff, before)).toEqual(['change-request-configuration-updated']);
    const overview = await flagstaff.insights.overview(alice, 'default');
    expect(overview.environments.map((e) => [e.environment, e.changeRequestsEnabled])).toEqual([
      ['development', false],
      ['production', true],
    ]);
    const envs = await flagstaff.insights.projectEnvironments(alice, 'default');
    expect(envs.environments.find((e) => e.name === 'production')?.changeRequestsEnabled).toBe(true);
  });

  it('needs the project admin permission and 1–10 approvals', async () => {
    await expect(
      crs().setConfig(viewer, 'default', 'production', { changeRequestsEnabled: true }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(
      crs().setConfig(alice, 'default', 'production', { changeRequestsEnabled: true, requiredApprovals: 11 }),
    ).rejects.toMatchObject({ code: 'VALIDATION', details: { path: 'requiredApprovals' } });
    await expect(
      crs().setConfig(alice, 'default', 'staging', { changeRequestsEnabled: true }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await crs().getConfig(alice, 'default'))[1]?.changeRequestEnabled).toBe(false);
  });
});

describe('direct changes where change requests are required', () => {
  it('are refused for users, admin tokens and imports with a message naming the change request; other environments work', async () => {
    await enable();
    for (const caller of [alice, ann, tokenCaller('admin')])
      await expect(
        flagstaff.featureEnvironments.setEnabled(caller, 'default', 'f1', 'production', true),
      ).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message: expect.stringContaining('needs a change request'),
      });
    await expect(flagstaff.strategies.add(alice, prod, { name: 'default' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(flagstaff.features.archive(alice, 'default', ['f1'])).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(
      flagstaff.imports.import(alice, {
        project: 'default',
        environment: 'production',
        data: { features: [{ name: 'f9' }] },
      }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('change request') });
    await flagstaff.featureEnvironments.setEnabled(alice, 'default', 'f1', 'development', true);
    expect((await flagstaff.store.featureEnvironments.get('f1', 'production'))?.enabled ?? false).toBe(false);
  });
});

describe('drafts', () => {
  beforeEach(() => enable());

  it("collects changes in the caller's draft, replacing a change to the same thing", async () => {
    const first = await crs().addChanges(ann, 'default', 'production', toggle(true));
    const second = await crs().addChanges(ann, 'default', 'production', [
      toggle(false),
      {
        feature: 'f1',
        action: 'addStrategy',
        payload: { name: 'flexibleRollout', parameters: { rollout: 50 } },
      },
    ]);
    expect(second.id).toBe(first.id);
    expect(second.state).toBe('Draft');
    expect(second.features[0]?.changes.map((c) => [c.action, c.payload])).toEqual([
      ['updateEnabled', { enabled: false }],
      ['addStrategy', expect.objectContaining({ name: 'flexibleRollout' })],
    ]);
    const other = await crs().addChanges(bob, 'default', 'production', toggle(true));
    expect(other.id).not.toBe(first.id);
    expect((await crs().draft(ann, 'default')).map((d) => d.id)).toEqual([first.id]);
  });

  it("validates payloads with the direct routes' schemas and stores nothing on error", async () => {
    const before = await flagstaff.store.events.latestId();
    await expect(
      crs().addChanges(ann, 'default', 'production', {
        feature: 'f1',
        action: 'addStrategy',
        payload: {
          name: 'flexibleRollout',
          constraints: [{ contextName: 'x', operator: 'NOPE', values: [] }],
        },
      }),
    ).rejects.toMatchObject({
      code: 'VALIDATION',
      details: { path: expect.stringContaining('payload.constraints[0]') },
    });
    await expect(
      crs().addChanges(ann, 'default', 'production', {
        feature: 'nope',
        action: 'updateEnabled',
        payload: { enabled: true },
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(
      crs().addChanges(ann, 'default', 'production', { feature: 'f1', action: 'explode' }),
    ).rejects.toMatchObject({ code: 'VALIDATION', details: { path: 'action' } });
    await expect(crs().addChanges(viewer, 'default', 'production', toggle(true))).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(crs().addChanges(ann, 'default', 'development', toggle(true))).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect(await flagstaff.store.events.latestId()).toBe(before);
    expect(await flagstaff.store.changeRequests.list({})).toEqual([]);
  });
});

describe('segments', () => {
  beforeEach(() => enable());

  it('list strategies that open change requests would make use them, and take segment changes', async () => {
    const segment = await flagstaff.segments.create(alice, { name: 'beta', constraints: [] });
    await crs().addChanges(ann, 'default', 'production', {
      feature: 'f1',
      action: 'addStrategy',
      payload: { name: 'default', segments: [segment.id] },
    });
    expect((await flagstaff.segments.strategiesUsing(alice, segment.id)).changeRequestStrategies).toEqual([
      { featureName: 'f1', projectId: 'default', environment: 'production', strategyName: 'default' },
    ]);
    // A segment no strategy uses in the environment is not the environment's to change.
    await expect(
      crs().addChanges(ann, 'default', 'production', {
        action: 'updateSegment',
        payload: { id: segment.id, name: 'beta', constraints: [] },
      }),
    ).rejects.toMatchObject({ code: 'VALIDATION', details: { path: 'payload.id' } });
  });
});

describe('segment changes', () => {
  it('apply to a segment used in the environment, as the segment route does', async () => {
    const segment = await flagstaff.segments.create(alice, { name: 'beta', constraints: [] });
    await flagstaff.strategies.add(alice, prod, { name: 'default', segments: [segment.id] });
    await enable();
    const constraints = [{ contextName: 'userId', operator: 'IN', values: ['a'] }];
    const id = await inReview({
      action: 'updateSegment',
      payload: { id: segment.id, name: 'beta', constraints },
    });
    expect((await crs().get(alice, 'default', id)).segments).toMatchObject([
      { action: 'updateSegment', name: 'beta' },
    ]);
    await crs().changeState(bob, 'default', id, { state: 'Approved' });
    await crs().changeState(ann, 'default', id, { state: 'Applied' });
    expect((await flagstaff.store.segments.get(segment.id))?.constraints).toMatchObject(constraints);
    const [event] = await flagstaff.store.events.search({ type: 'segment-updated', limit: 1 });
    expect(event?.createdBy).toBe('user-11@example.com');
  });
});

describe('the state machine', () => {
  beforeEach(() => enable());

  it('goes Draft → In review → Approved → Applied, with the change reaching the feature only at Applied', async () => {
    const id = await inReview();
    await expect(crs().changeState(ann, 'default', id, { state: 'Approved' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringContaining('author'),
    });
    await expect(crs().changeState(viewer, 'default', id, { state: 'Approved' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    const approved = await crs().changeState(bob, 'default', id, {
      state: 'Approved',
      comment: 'looks good',
    });
    expect(approved.state).toBe('Approved');
    expect(approved.approvals.map((a) => a.createdBy.id)).toEqual([12]);
    expect((await flagstaff.store.featureEnvironments.get('f1', 'production'))?.enabled ?? false).toBe(false);
    const before = await flagstaff.store.events.latestId();
    const applied = await crs().changeState(ann, 'default', id, { state: 'Applied' });
    expect(applied.state).toBe('Applied');
    expect((await flagstaff.store.featureEnvironments.get('f1', 'production'))?.enabled).toBe(true);
    expect(await eventTypesSince(flagstaff, before)).toEqual([
      'feature-environment-enabled',
      'change-request-applied',
    ]);
    const [event] = await flagstaff.store.events.search({ type: 'feature-environment-enabled', limit: 1 });
    expect(event).toMatchObject({ createdBy: 'user-11@example.com', environment: 'production' });
  });

  it('needs the configured number of approvals from distinct reviewers', async () => {
    await enable(2);
    const id = await inReview();
    expect((await crs().changeState(bob, 'default', id, { state: 'Approved' })).state).toBe('In review');
    await expect(crs().changeState(bob, 'default', id, { state: 'Approved' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await expect(crs().changeState(ann, 'default', id, { state: 'Applied' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect((await crs().changeState(carl, 'default', id, { state: 'Approved' })).state).toBe('Approved');
  });

  it('refuses every transition the machine does not have', async () => {
    const draft = await crs().addChanges(ann, 'default', 'production', toggle(true));
    for (const state of ['Approved', 'Applied', 'Scheduled', 'Rejected'] as const)
      await expect(crs().changeState(bob, 'default', draft.id, { state })).rejects.toMatchObject({
        code: 'CONFLICT',
      });
    await expect(crs().changeState(bob, 'default', draft.id, { state: 'In review' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await crs().changeState(ann, 'default', draft.id, { state: 'In review' });
    await expect(crs().changeState(ann, 'default', draft.id, { state: 'Rejected' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(crs().changeState(bob, 'default', draft.id, { state: 'Cancelled' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    const rejected = await crs().changeState(bob, 'default', draft.id, { state: 'Rejected', comment: 'no' });
    expect(rejected.state).toBe('Rejected');
    expect(rejected.comments.map((c) => c.text)).toEqual(['no']);
    for (const state of ['Draft', 'In review', 'Approved', 'Applied', 'Cancelled'] as const)
      await expect(crs().changeState(ann, 'default', draft.id, { state })).rejects.toMatchObject({
        code: 'CONFLICT',
      });
    const cancelled = await inReview();
    expect((await crs().changeState(ann, 'default', cancelled, { state: 'Cancelled' })).state).toBe(
      'Cancelled',
    );
    await expect(crs().changeState(ann, 'default', cancelled, { state: 'In review' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
  });

  it('schedules an approved request for a future time only, and cancels a schedule', async () => {
    const id = await inReview();
    await crs().changeState(bob, 'default', id, { state: 'Approved' });
    await expect(crs().changeState(ann, 'default', id, { state: 'Scheduled' })).rejects.toMatchObject({
      code: 'VALIDATION',
    });
    await expect(
      crs().changeState(ann, 'default', id, { state: 'Scheduled', scheduledAt: '2025-01-01T00:00:00Z' }),
    ).rejects.toMatchObject({ code: 'VALIDATION' });
    const scheduled = await crs().changeState(ann, 'default', id, {
      state: 'Scheduled',
      scheduledAt: '2026-01-02T00:00:00Z',
    });
    expect(scheduled.schedule).toEqual({ scheduledAt: '2026-01-02T00:00:00.000Z', status: 'pending' });
    const cancelled = await crs().changeState(ann, 'default', id, { state: 'Cancelled' });
    expect(cancelled.schedule).toBeUndefined();
  });
});

describe('applying', () => {
  beforeEach(() => enable());

  it('applies nothing when one change fails, and the request says why', async () => {
    const strategy = (
      await flagstaff.store.strategies.list({ featureName: 'f1', environment: 'production' })
    )[0]!;
    const id = await inReview([
      toggle(true),
      { feature: 'f1', action: 'deleteStrategy', payload: { id: strategy.id } },
      { feature: 'f1', action: 'addDependency', payload: { feature: 'f2' } },
    ]);
    await crs().changeState(bob, 'default', id, { state: 'Approved' });
    const before = await flagstaff.store.events.latestId();
    await expect(crs().changeState(ann, 'default', id, { state: 'Applied' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('Change 3 (addDependency on "f1")'),
    });
    expect((await flagstaff.store.featureEnvironments.get('f1', 'production'))?.enabled ?? false).toBe(false);
    expect(await flagstaff.store.strategies.get(strategy.id)).not.toBeNull();
    expect(await eventTypesSince(flagstaff, before)).toEqual([]);
    const view = await crs().get(alice, 'default', id);
    expect(view.state).toBe('Approved');
    expect(view.conflict).toContain('Change 3');
  });

  it('applies once when two callers apply at the same time: the second finds it changed', async () => {
    const id = await inReview();
    await crs().changeState(bob, 'default', id, { state: 'Approved' });
    const results = await Promise.allSettled([
      crs().changeState(ann, 'default', id, { state: 'Applied' }),
      crs().changeState(bob, 'default', id, { state: 'Applied' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 'CONFLICT' } });
    expect(await flagstaff.store.events.search({ type: 'change-request-applied' })).toHaveLength(1);
    expect(await flagstaff.store.events.search({ type: 'feature-environment-enabled' })).toHaveLength(1);
  });

  it('detects a strategy changed since drafting, shows before/draft/now, and applies after the author updates the change', async () => {
    const strategy = (
      await flagstaff.store.strategies.list({ featureName: 'f1', environment: 'production' })
    )[0]!;
    const change = {
      feature: 'f1',
      action: 'updateStrategy' as const,
      payload: { id: strategy.id, name: 'default', title: 'mine' },
    };
    const id = await inReview(change);
    await crs().changeState(bob, 'default', id, { state: 'Approved' });
    // Someone changes the strategy in the meantime (a change request that is not guarded: off, edit, on).
    await crs().setConfig(alice, 'default', 'production', { changeRequestsEnabled: false });
    await flagstaff.strategies.update(alice, prod, strategy.id, { name: 'default', title: 'theirs' });
    await enable();
    const view = await crs().get(alice, 'default', id);
    const shown = view.features[0]?.changes[0];
    expect(shown?.conflict).toContain('changed after this change was drafted');
    expect(shown?.conflictDetails).toMatchObject({
      before: { title: null },
      draft: { title: 'mine' },
      now: { title: 'theirs' },
    });
    await expect(crs().changeState(ann, 'default', id, { state: 'Applied' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    expect((await flagstaff.store.strategies.get(strategy.id))?.title).toBe('theirs');
    await expect(crs().editChange(bob, 'default', id, shown!.id, change)).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    const edited = await crs().editChange(ann, 'default', id, shown!.id, change);
    // Edited changes need approving again.
    expect(edited.state).toBe('In review');
    expect(edited.features[0]?.changes[0]?.conflict).toBeUndefined();
    await crs().changeState(bob, 'default', id, { state: 'Approved' });
    await crs().changeState(ann, 'default', id, { state: 'Applied' });
    expect((await flagstaff.store.strategies.get(strategy.id))?.title).toBe('mine');
  });
});
