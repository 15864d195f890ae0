import { type Caller, createFeature, type Flagstaff } from '@flagstaff/core';
import type { FlagBackend } from './backend.js';

/** The tools' backend in-process: every call goes through the facade as `caller`, so the policy judges it. */
export function createFacadeBackend(flagstaff: Flagstaff, caller: Caller): FlagBackend {
  return {
    searchFeatures: (params) => flagstaff.featureSearch.search(caller, params),
    listFeatures: (project) => flagstaff.features.list(caller, project),
    getFeature: (project, name) => flagstaff.features.get(caller, project, name),
    // The tool's arguments are checked by the operation's input schema, with the path's project.
    createFeature: (project, input) =>
      flagstaff.run.unknown(createFeature, caller, { ...(input as Record<string, unknown>), project }),
    setEnabled: (project, name, environment, enabled) =>
      flagstaff.featureEnvironments.setEnabled(caller, project, name, environment, enabled),
    listStrategies: (at) => flagstaff.strategies.list(caller, at),
    addStrategy: (at, config) => flagstaff.strategies.add(caller, at, config),
    updateStrategy: (at, id, config) => flagstaff.strategies.update(caller, at, id, config),
    evaluate: (input) => flagstaff.playground.evaluate(caller, input),
    async featureTypeLifetimes() {
      const { types } = await flagstaff.definitions.featureTypes.list(caller);
      return Object.fromEntries(types.map((t) => [t.id, t.lifetimeDays]));
    },
    archiveFeature: (project, name) => flagstaff.features.archive(caller, project, [name]),
  };
}
