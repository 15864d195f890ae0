import { beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import { SYSTEM } from '../../auth/caller.js';
import type { Project } from '../../domain/project.js';
import type { Segment } from '../../domain/segment.js';
import type { Flagstaff } from '../../flagstaff.js';
import { alice, createTestFlagstaff, userCaller } from '../test-support.js';
import { createContextField, listContextFields } from './context-field-operations.js';
import { createEnvironment, listEnvironments } from './environment-operations.js';
import { createProject, getProjectSettings, listProjects } from './project-operations.js';
import { getProjectHealthReport, getProjectInsights, getProjectStatus } from './project-status-operations.js';
import { createSegment, listSegments } from './segment-operations.js';

let flagstaff: Flagstaff;
beforeEach(async () => {
  ({ flagstaff } = await createTestFlagstaff());
});

describe('project, environment, segment and context field operations', () => {
  it('refuse a caller without the permission before reporting a bad body', async () => {
    const viewer = await flagstaff.users.create(alice, { email: 'v@example.com', rootRole: 'Viewer' });
    const caller = userCaller(viewer.id, 'Viewer');
    for (const [operation, body] of [
      [createProject, { id: '' }],
      [createEnvironment, { name: 'has space' }],
      [createSegment, { name: '' }],
      [createContextField, { name: 'has space' }],
    ] as const)
      await expect(flagstaff.run.unknown(operation, caller, body)).rejects.toMatchObject({
        code: 'FORBIDDEN',
      });
    await expect(flagstaff.run.unknown(createSegment, alice, { name: '' })).rejects.toMatchObject({
      code: 'VALIDATION',
    });
  });

  it('answer what their output schemas declare', async () => {
    await flagstaff.run(createSegment, alice, { name: 'beta', constraints: [] });
    await flagstaff.run(createContextField, alice, { name: 'tenant', legalValues: [{ value: 'a' }] });
    for (const operation of [listProjects, listEnvironments, listSegments, listContextFields] as const) {
      const answer = await flagstaff.run(operation, alice, {});
      expect(operation.output.safeParse(answer).success).toBe(true);
    }
    for (const operation of [
      getProjectSettings,
      getProjectStatus,
      getProjectHealthReport,
      getProjectInsights,
    ]) {
      const answer = await flagstaff.run(operation, alice, { project: 'default' });
      expect(operation.output.safeParse(answer).success).toBe(true);
    }
  });

  it('keep the facade typed: flagstaff.segments and contextFields return what the operations do', async () => {
    const segment = await flagstaff.segments.create(alice, { name: 'eu' });
    expect(await flagstaff.segments.get(alice, segment.id)).toEqual(segment);
    const field = await flagstaff.contextFields.setLegalValue(alice, 'userId', { value: 'u1' });
    expect(field.legalValues).toEqual([{ value: 'u1' }]);
    expect((await flagstaff.projectViews.flagCreators(alice, 'default')).length).toBe(0);
  });

  it('serves the typed calls docs/embedding.md shows', async () => {
    const project = await flagstaff.projects.create(SYSTEM, { id: 'checkout', name: 'Checkout' });
    expectTypeOf(project).toEqualTypeOf<Project>();
    const segment = await flagstaff.segments.create(SYSTEM, { name: 'beta', project: 'checkout' });
    expectTypeOf(segment).toEqualTypeOf<Segment>();
    const status = await flagstaff.projectViews.status(SYSTEM, 'checkout');
    expect(status.lifecycleSummary.live).toEqual({ currentFlags: 0, averageDays: null });
  });
});
