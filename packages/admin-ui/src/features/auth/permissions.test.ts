import { describe, expect, it } from 'vitest';
import { createCan, createWhyNot } from './permissions';

describe('createCan', () => {
  it('lets an admin do anything and a Viewer nothing', () => {
    expect(createCan({ permissions: [{ permission: 'ADMIN' }] })('UPDATE_FEATURE')).toBe(true);
    const viewer = createCan({ permissions: [] });
    expect(viewer('UPDATE_FEATURE_ENVIRONMENT', { project: 'default', environment: 'development' })).toBe(
      false,
    );
  });

  it('honours the project and environment a permission is scoped to', () => {
    const can = createCan({
      permissions: [
        { permission: 'UPDATE_FEATURE_ENVIRONMENT', project: 'checkout', environment: 'development' },
      ],
    });
    expect(can('UPDATE_FEATURE_ENVIRONMENT', { project: 'checkout', environment: 'development' })).toBe(true);
    expect(can('UPDATE_FEATURE_ENVIRONMENT', { project: 'checkout', environment: 'production' })).toBe(false);
    expect(can('UPDATE_FEATURE_ENVIRONMENT', { project: 'other', environment: 'development' })).toBe(false);
  });
});

describe('createWhyNot', () => {
  it('says which role a Viewer lacks, and nothing when the action is allowed', () => {
    const viewer = createWhyNot(createCan({ permissions: [] }));
    expect(viewer('CREATE_PROJECT')).toBe('Needs the Editor or Admin role.');
    expect(viewer('CREATE_ADDON')).toBe('Needs the Admin role.');
    expect(viewer('UPDATE_FEATURE_ENVIRONMENT', { project: 'default', environment: 'production' })).toBe(
      'Needs the Editor role, or a project role in project “default” that allows this for production.',
    );
    const admin = createWhyNot(createCan({ permissions: [{ permission: 'ADMIN' }] }));
    expect(admin('CREATE_ADDON')).toBeNull();
  });
});
