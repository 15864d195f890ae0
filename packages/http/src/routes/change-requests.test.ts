import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { as } from '../testing/as-user.js';
import { errorBody, startTestServer, type TestServer } from '../testing/harness.js';

let s: TestServer;
let ann: number;
let bob: number;
let viewer: number;
const P = '/api/admin/projects/default';
const CR = `${P}/change-requests`;
const toggle = (enabled: boolean) => ({ feature: 'f1', action: 'updateEnabled', payload: { enabled } });

beforeEach(async () => {
  s = await startTestServer();
  ann = await s.user('Editor', 'ann@example.com');
  bob = await s.user('Editor', 'bob@example.com');
  viewer = await s.user('Viewer', 'vic@example.com');
  expect((await s.request('POST', `${P}/features`, { body: { name: 'f1' } })).status).toBe(200);
  expect(
    (
      await s.request('PUT', `${P}/environments/production/change-requests/config`, {
        body: { changeRequestsEnabled: true, requiredApprovals: 1 },
      })
    ).status,
  ).toBe(204);
});
afterEach(() => s.close());

/** Everything stored about change requests, to show an error changed nothing. */
const snapshot = async () => ({
  requests: await s.flagstaff.store.changeRequests.list({}),
  settings: await s.flagstaff.store.changeRequests.listSettings('default'),
  events: await s.flagstaff.store.events.latestId(),
});

async function draftOf(user: number, body: unknown = toggle(true)) {
  const res = await s.request('POST', `${P}/environments/production/change-requests`, { ...as(user), body });
  expect(res.status, res.text).toBe(200);
  return res.body as { id: number; state: string; features: { changes: { id: number }[] }[] };
}

describe('configuration', () => {
  it('answers the reference shape and reports it in the project overview', async () => {
    const res = await s.request('GET', `${CR}/config`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { environment: 'development', type: 'development', changeRequestEnabled: false, requiredApprovals: 1 },
      { environment: 'production', type: 'production', changeRequestEnabled: true, requiredApprovals: 1 },
    ]);
    const overview = await s.request('GET', `${P}/overview`);
    expect(overview.body.environments).toContainEqual(
      expect.objectContaining({ environment: 'production', changeRequestsEnabled: true }),
    );
  });

  it('answers 400 naming the property, 401, 403 and 404, storing nothing', async () => {
    const before = await snapshot();
    const put = (path: string, body: unknown, opts = {}) => s.request('PUT', path, { body, ...opts });
    const config = `${P}/environments/production/change-requests/config`;
    const bad = await put(config, { changeRequestsEnabled: true, requiredApprovals: 0 });
    expect(bad.status).toBe(400);
    expect(errorBody(bad).message).toContain('requiredApprovals');
    expect((await put(config, { changeRequestsEnabled: false }, { token: null })).status).toBe(401);
    expect((await put(config, { changeRequestsEnabled: false }, as(viewer))).status).toBe(403);
    expect(
      (await put(`${P}/environments/nope/change-requests/config`, { changeRequestsEnabled: true })).status,
    ).toBe(404);
    expect((await s.request('GET', '/api/admin/projects/nope/change-requests/config')).status).toBe(404);
    expect(await snapshot()).toEqual(before);
  });
});

describe('direct changes', () => {
  it('are refused with 403 saying a change request is needed, for tokens and users; SDKs are untouched', async () => {
    for (const opts of [{}, as(ann)]) {
      const res = await s.request('POST', `${P}/features/f1/environments/production/on`, opts);
      expect(res.status).toBe(403);
      expect(errorBody(res).message).toContain('needs a change request');
    }
    const strategy = await s.request('POST', `${P}/features/f1/environments/production/strategies`, {
      body: { name: 'default' },
    });
    expect(strategy.status).toBe(403);
    expect((await s.request('POST', `${P}/features/f1/environments/development/on`)).status).toBe(200);
    const client = await s.request('GET', '/api/client/features', { token: await s.token('client') });
    expect(client.status).toBe(200);
  });
});

describe('the review flow over HTTP', () => {
  it('drafts, sends to review, refuses the author approval, approves, applies', async () => {
    const draft = await draftOf(ann);
    expect(draft.state).toBe('Draft');
    const state = (user: number, body: unknown) =>
      s.request('PUT', `${CR}/${draft.id}/state`, { ...as(user), body });
    expect((await state(ann, { state: 'In review' })).body.state).toBe('In review');
    const own = await state(ann, { state: 'Approved' });
    expect(own.status).toBe(403);
    expect(errorBody(own).message).toContain('author');
    expect((await state(viewer, { state: 'Approved' })).status).toBe(403);
    const approved = await state(bob, { state: 'Approved', comment: 'ok' });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      state: 'Approved',
      approvals: [{ createdBy: { id: bob } }],
      comments: [{ text: 'ok' }],
    });
    expect((await state(bob, { state: 'In review' })).status).toBe(409);
    const applied = await state(ann, { state: 'Applied' });
    expect(applied.status, applied.text).toBe(200);
    expect(applied.body.state).toBe('Applied');
    const feature = await s.request('GET', `${P}/features/f1`);
    expect(feature.body.environments.find((e: { name: string }) => e.name === 'production').enabled).toBe(
      true,
    );
  });

  it('answers 400, 401, 403, 404 and 409 on changes and states, storing nothing', async () => {
    const draft = await draftOf(ann);
    const before = await snapshot();
    const post = (body: unknown, opts = {}) =>
      s.request('POST', `${P}/environments/production/change-requests`, { body, ...as(ann), ...opts });
    const bad = await post({
      feature: 'f1',
      action: 'addStrategy',
      payload: { name: 'flexibleRollout', parameters: { rollout: 101 } },
    });
    expect(bad.status).toBe(400);
    expect(errorBody(bad).message).toContain('payload');
    expect((await post({ feature: 'f1', action: 'nope' })).status).toBe(400);
    expect((await post(toggle(true), { token: null, headers: {} })).status).toBe(401);
    expect((await post(toggle(true), as(viewer))).status).toBe(403);
    expect((await post({ ...toggle(true), feature: 'ghost' })).status).toBe(404);
    expect(
      (await s.request('POST', `${P}/environments/development/change-requests`, { body: toggle(true) }))
        .status,
    ).toBe(409);
    const state = (id: unknown, body: unknown, opts = {}) =>
      s.request('PUT', `${CR}/${id}/state`, { body, ...as(ann), ...opts });
    expect((await state(draft.id, { state: 'Sideways' })).status).toBe(400);
    expect((await state(draft.id, { state: 'Applied' })).status).toBe(409);
    expect((await state(999, { state: 'In review' })).status).toBe(404);
    expect((await state('abc', { state: 'In review' })).status).toBe(404);
    expect((await state(draft.id, { state: 'In review' }, as(bob))).status).toBe(403);
    expect((await state(draft.id, { state: 'In review' }, { token: null, headers: {} })).status).toBe(401);
    expect((await s.request('GET', `/api/admin/projects/nope/change-requests/${draft.id}`)).status).toBe(404);
    expect(
      (await s.request('PUT', `${CR}/${draft.id}/title`, { ...as(bob), body: { title: 'x' } })).status,
    ).toBe(403);
    expect(
      (await s.request('PUT', `${CR}/${draft.id}/title`, { ...as(ann), body: { title: '' } })).status,
    ).toBe(400);
    expect(
      (await s.request('PUT', `${CR}/${draft.id}/changes/77`, { ...as(ann), body: toggle(false) })).status,
    ).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it('renames, comments, asks reviewers, edits and discards changes, discards the draft', async () => {
    const draft = await draftOf(ann, [
      toggle(true),
      { feature: 'f1', action: 'patchVariant', payload: { variants: [] } },
    ]);
    const url = `${CR}/${draft.id}`;
    expect(
      (await s.request('PUT', `${url}/title`, { ...as(ann), body: { title: 'Turn on f1' } })).status,
    ).toBe(200);
    expect((await s.request('POST', `${url}/comments`, { ...as(bob), body: { text: 'why?' } })).status).toBe(
      200,
    );
    expect(
      (await s.request('PUT', `${url}/reviewers`, { ...as(ann), body: { reviewers: [bob] } })).status,
    ).toBe(200);
    expect(
      (await s.request('PUT', `${url}/reviewers`, { ...as(ann), body: { reviewers: [4242] } })).status,
    ).toBe(400);
    const [first, second] = draft.features[0]!.changes;
    const edited = await s.request('PUT', `${url}/changes/${first!.id}`, { ...as(ann), body: toggle(false) });
    expect(edited.status, edited.text).toBe(200);
    expect((await s.request('DELETE', `${url}/changes/${second!.id}`, as(ann))).status).toBe(200);
    const view = (await s.request('GET', url)).body;
    expect(view).toMatchObject({
      title: 'Turn on f1',
      comments: [{ text: 'why?', createdBy: { id: bob } }],
      reviewers: [{ id: bob }],
      features: [{ name: 'f1', changes: [{ action: 'updateEnabled', payload: { enabled: false } }] }],
    });
    const search = await s.request(
      'GET',
      `/api/admin/search/change-requests?requestedApproverId=${bob}&state=open`,
      as(ann),
    );
    expect(search.body).toMatchObject({ total: 1, changeRequests: [{ id: draft.id, features: ['f1'] }] });
    expect((await s.request('GET', '/api/admin/search/change-requests?limit=x')).status).toBe(400);
    expect((await s.request('DELETE', url, as(bob))).status).toBe(403);
    expect((await s.request('DELETE', url, as(ann))).status).toBe(200);
    expect((await s.request('GET', url)).status).toBe(404);
  });

  it('serves the listings: draft, open, pending, per feature, count, actionable, scheduled, reviewers', async () => {
    const draft = await draftOf(ann);
    const mine = (path: string, user = ann) => s.request('GET', `${CR}${path}`, as(user));
    expect((await mine('/draft')).body.map((r: { id: number }) => r.id)).toEqual([draft.id]);
    // Someone else's draft is theirs alone.
    expect((await mine('/open', bob)).body).toEqual([]);
    await s.request('PUT', `${CR}/${draft.id}/state`, { ...as(ann), body: { state: 'In review' } });
    expect((await mine('/pending', bob)).body.map((r: { id: number }) => r.id)).toEqual([draft.id]);
    expect((await mine('/pending/f1', bob)).body).toHaveLength(1);
    expect((await mine('/pending/other', bob)).body).toEqual([]);
    expect((await mine('/count')).body).toEqual({
      total: 1,
      applied: 0,
      rejected: 0,
      reviewRequired: 1,
      approved: 0,
      scheduled: 0,
    });
    expect((await mine('/actionable', bob)).body).toEqual({ total: 1 });
    expect((await mine('/actionable', ann)).body).toEqual({ total: 0 });
    await s.request('PUT', `${CR}/${draft.id}/state`, { ...as(bob), body: { state: 'Approved' } });
    await s.request('PUT', `${CR}/${draft.id}/state`, {
      ...as(bob),
      body: { state: 'Scheduled', scheduledAt: new Date(Date.now() + 3_600_000).toISOString() },
    });
    expect((await mine('/scheduled?variantForFlag=f1')).body).toEqual([]);
    expect((await mine('/scheduled')).body).toEqual([{ id: draft.id, title: `Change request #${draft.id}` }]);
    const reviewers = (await mine('/available-reviewers/production')).body.reviewers.map(
      (r: { id: number }) => r.id,
    );
    expect(reviewers).toEqual(expect.arrayContaining([ann, bob]));
    expect(reviewers).not.toContain(viewer);
    expect((await s.request('GET', `${CR}/count`, { token: null })).status).toBe(401);
  });
});

describe('revert from history', () => {
  it('restores the previous strategy from the event log, and answers 404, 409 and 401', async () => {
    const url = `${P}/features/f1/environments/development/strategies`;
    const created = await s.request('POST', url, { body: { name: 'default', title: 'first' } });
    expect(created.status).toBe(200);
    expect(
      (await s.request('PUT', `${url}/${created.body.id}`, { body: { name: 'default', title: 'second' } }))
        .status,
    ).toBe(200);
    const events = await s.request('GET', '/api/admin/events?type=feature-strategy-update');
    const event = events.body.events[0];
    expect((await s.request('POST', `/api/admin/events/${event.id}/revert`, { token: null })).status).toBe(
      401,
    );
    const res = await s.request('POST', `/api/admin/events/${event.id}/revert`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ applied: true, change: { action: 'updateStrategy' } });
    expect((await s.request('GET', `${url}/${created.body.id}`)).body.title).toBe('first');
    // Reverting the same event again: the strategy is no longer what that event left.
    expect((await s.request('POST', `/api/admin/events/${event.id}/revert`)).status).toBe(409);
    expect((await s.request('POST', '/api/admin/events/999999/revert')).status).toBe(404);
  });

  it('hides events of a private project from non-members (404) and refuses everything in maintenance mode', async () => {
    const project = await s.request('POST', '/api/admin/projects', {
      body: { id: 'secret', name: 'secret', mode: 'private' },
    });
    expect(project.status, project.text).toBe(201);
    expect(
      (await s.request('POST', '/api/admin/projects/secret/features', { body: { name: 'hidden' } })).status,
    ).toBe(200);
    expect(
      (await s.request('POST', '/api/admin/projects/secret/features/hidden/environments/development/on'))
        .status,
    ).toBe(200);
    const events = await s.request('GET', '/api/admin/events?type=feature-environment-enabled');
    const hidden = events.body.events.find((e: { featureName: string }) => e.featureName === 'hidden');
    const before = await snapshot();
    const outsider = await s.request('POST', `/api/admin/events/${hidden.id}/revert`, as(ann));
    expect(outsider.status).toBe(404);
    expect(errorBody(outsider).message).toContain('secret');
    expect((await s.request('POST', '/api/admin/events/abc/revert')).status).toBe(404);
    expect(await snapshot()).toEqual(before);

    const draft = await draftOf(ann);
    expect((await s.request('POST', '/api/admin/maintenance', { body: { enabled: true } })).status).toBe(204);
    const afterToggle = await snapshot();
    const state = await s.request('PUT', `${CR}/${draft.id}/state`, {
      ...as(ann),
      body: { state: 'In review' },
    });
    expect(state.status).toBe(503);
    expect((await s.request('POST', `/api/admin/events/${hidden.id}/revert`)).status).toBe(503);
    expect(await snapshot()).toEqual(afterToggle);
    expect((await s.request('POST', '/api/admin/maintenance', { body: { enabled: false } })).status).toBe(
      204,
    );
    const admin = await s.request('POST', `/api/admin/events/${hidden.id}/revert`);
    expect(admin.status, admin.text).toBe(200);
    expect(admin.body).toEqual({
      applied: true,
      change: { feature: 'hidden', action: 'updateEnabled', payload: { enabled: false } },
    });
  });
});
