import {
  createProjectSchema,
  environmentNameSchema,
  parseWith,
  projectSettingsSchema,
  strategyConfigSchema,
  updateProjectSchema,
  validateProjectIdSchema,
} from '@flagstaff/core';
import { z } from 'zod';
import { defineRoutes } from '../route.js';

const P = '/api/admin/projects';
const _project = { project: 'projectId' };
const projectEnvironmentBody = z.object({ environment: environmentNameSchema });

/** Projects and the environments they use. */
export const projectRoutes = defineRoutes([
  {
    method: 'get',
    path: P,
    api: 'admin',
    tag: 'Projects',
    summary: 'List projects',
    status: 200,
    handler: async ({ flagstaff, caller }) => ({
      version: 1,
      projects: await flagstaff.projects.list(caller),
    }),
  },
  {
    method: 'post',
    path: P,
    api: 'admin',
    tag: 'Projects',
    summary: 'Create a project',
    status: 201,
    body: createProjectSchema,
    errors: [409],
    handler: ({ flagstaff, caller, body }) => flagstaff.projects.create(caller, body),
  },
  {
    method: 'post',
    path: `${P}/validate`,
    api: 'admin',
    tag: 'Projects',
    summary: 'Validate a project id',
    status: 200,
    empty: true,
    body: validateProjectIdSchema,
    errors: [409],
    handler: ({ flagstaff, body, caller }) => flagstaff.projects.validateId(caller, body),
  },
  {
    method: 'get',
    path: `${P}/:projectId`,
    api: 'admin',
    tag: 'Projects',
    summary: 'Get a project',
    status: 200,
    handler: ({ flagstaff, params, caller }) => flagstaff.projects.get(caller, params.projectId!),
  },
  {
    method: 'put',
    path: `${P}/:projectId`,
    api: 'admin',
    tag: 'Projects',
    summary: 'Update a project',
    status: 200,
    empty: true,
    body: updateProjectSchema,
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.projects.update(caller, params.projectId!, body),
  },
  {
    method: 'delete',
    path: `${P}/:projectId`,
    api: 'admin',
    tag: 'Projects',
    summary: 'Delete a project',
    status: 200,
    empty: true,
    errors: [409],
    handler: ({ flagstaff, caller, params }) => flagstaff.projects.delete(caller, params.projectId!),
  },
  {
    method: 'get',
    path: `${P}/:projectId/settings`,
    api: 'admin',
    tag: 'Projects',
    summary: "Get a project's settings (mode, default stickiness, feature limit, naming)",
    status: 200,
    handler: ({ flagstaff, params, caller }) => flagstaff.projects.getSettings(caller, params.projectId!),
  },
  {
    method: 'put',
    path: `${P}/:projectId/settings`,
    api: 'admin',
    tag: 'Projects',
    summary: "Update a project's settings; what is omitted stays",
    status: 200,
    body: projectSettingsSchema,
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.projects.updateSettings(caller, params.projectId!, body),
  },
  {
    method: 'post',
    path: `${P}/:projectId/environments`,
    api: 'admin',
    tag: 'Projects',
    summary: 'Enable an environment in a project',
    status: 200,
    empty: true,
    body: projectEnvironmentBody,
    errors: [409],
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.projects.addEnvironment(
        caller,
        params.projectId!,
        parseWith(projectEnvironmentBody, body).environment,
      ),
  },
  {
    method: 'delete',
    path: `${P}/:projectId/environments/:environment`,
    api: 'admin',
    tag: 'Projects',
    summary: 'Disable an environment in a project',
    status: 200,
    empty: true,
    errors: [409],
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.projects.removeEnvironment(caller, params.projectId!, params.environment!),
  },
  {
    method: 'post',
    path: `${P}/:projectId/environments/:environment/default-strategy`,
    api: 'admin',
    tag: 'Projects',
    summary: 'Set the default strategy of a project environment',
    status: 200,
    body: strategyConfigSchema,
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.projects.setDefaultStrategy(caller, params.projectId!, params.environment!, body),
  },
  {
    method: 'post',
    path: `${P}/:projectId/favorites`,
    api: 'admin',
    tag: 'Projects',
    summary: 'Add a project to favorites',
    status: 200,
    empty: true,
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.projects.setFavorite(caller, params.projectId!, true),
  },
  {
    method: 'delete',
    path: `${P}/:projectId/favorites`,
    api: 'admin',
    tag: 'Projects',
    summary: 'Remove a project from favorites',
    status: 200,
    empty: true,
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.projects.setFavorite(caller, params.projectId!, false),
  },
]);
