import { describe, expect, it } from 'vitest';
import { createCan } from './permissions';

const user = { id: 2, name: 'V', email: 'v@example.com', username: null };

describe('createCan', () => {
  it('lets an admin do anything and a Viewer nothing', () => {
    expect(
      createCan({ user: { ...user, rootRole: 1 }, permissions: [{ permission: 'ADMIN' }] })('UPDATE_FEATURE'),
    ).toBe(true);
    const viewer = createCan({ user: { ...user, rootRole: 3 }, permissions: [] });
    expect(viewer('UPDATE_FEATURE_ENVIRONMENT', { project: 'default', environment: 'development' })).toBe(
      false,
    );
  });

  it('honours the project and environment a permission is scoped to', () => {
    const can = createCan({
      user: { ...user, rootRole: 2 },
      permissions: [
        { permission: 'UPDATE_FEATURE_ENVIRONMENT', project: 'checkout', environment: 'development' },
      ],
    });
    expect(can('UPDATE_FEATURE_ENVIRONMENT', { project: 'checkout', environment: 'development' })).toBe(true);
    expect(can('UPDATE_FEATURE_ENVIRONMENT', { project: 'checkout', environment: 'production' })).toBe(false);
    expect(can('UPDATE_FEATURE_ENVIRONMENT', { project: 'other', environment: 'development' })).toBe(false);
  });
});
