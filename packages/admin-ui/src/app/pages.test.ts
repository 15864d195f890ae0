import { describe, expect, it } from 'vitest';
import { matchPage } from './pages';

describe('matchPage', () => {
  it('finds the page of an address with its decoded parameters', () => {
    expect(matchPage('projects/default')).toEqual({
      path: 'projects/:projectId',
      params: { projectId: 'default' },
    });
    expect(matchPage('/projects/my%20app/features/a.b/')).toEqual({
      path: 'projects/:projectId/features/:featureName',
      params: { projectId: 'my app', featureName: 'a.b' },
    });
    expect(matchPage('projects')).toEqual({ path: 'projects', params: {} });
  });

  it('answers null for an address no page has, the app root included', () => {
    expect(matchPage('projects/default/nowhere')).toBeNull();
    expect(matchPage('')).toBeNull();
    expect(matchPage('projects/%E0%A4%A')).toBeNull();
  });
});
