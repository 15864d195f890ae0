import type { Caller } from '../../auth/caller.js';
import type { Permission } from '../../auth/permissions.js';
import type { Policy } from '../../auth/policy.js';
import type { ImportBody, ImportIssue, ImportValidation } from '../../domain/feature-export.js';
import { compileNamingPattern } from '../../domain/naming-pattern.js';
import { isFlagstaffError } from '../../errors.js';
import type { ReadRepositories } from '../../ports/store.js';

const issue = (message: string, items: Iterable<string>): ImportIssue[] => {
  const affectedItems = [...new Set(items)].sort();
  return affectedItems.length === 0 ? [] : [{ message, affectedItems }];
};

/** What the target already holds that an import depends on, read once. */
export interface ImportTarget {
  projectExists: boolean;
  namingPattern: string | null;
  featureLimit: number | null;
  liveInProject: number;
  environmentLinked: boolean;
  environmentExists: boolean;
  /** Existing features by name: their project and whether they are archived. */
  existing: Map<string, { project: string; archived: boolean }>;
  segmentsByName: Map<string, number>;
  contextFields: Map<string, Set<string>>;
  tagTypes: Set<string>;
}

export async function readTarget(repos: ReadRepositories, body: ImportBody): Promise<ImportTarget> {
  const names = body.data.features.map((f) => f.name);
  const [project, environment, links, existing, segments, fields, tagTypes] = await Promise.all([
    repos.projects.get(body.project),
    repos.environments.get(body.environment),
    repos.environments.listForProject(body.project),
    names.length === 0 ? [] : repos.features.list({ names }),
    repos.segments.list(),
    repos.contextFields.list(),
    repos.tags.listTypes(),
  ]);
  return {
    projectExists: project !== null,
    namingPattern: project?.featureNaming?.pattern ?? null,
    featureLimit: project?.featureLimit ?? null,
    liveInProject: project ? await repos.features.countLive(body.project) : 0,
    environmentLinked: links.some((l) => l.environment === body.environment),
    environmentExists: environment !== null,
    existing: new Map(existing.map((f) => [f.name, { project: f.project, archived: f.archivedAt !== null }])),
    segmentsByName: new Map(segments.map((s) => [s.name, s.id])),
    contextFields: new Map(fields.map((c) => [c.name, new Set(c.legalValues.map((v) => v.value))])),
    tagTypes: new Set(tagTypes.map((t) => t.name)),
  };
}

/** Problems that block the import, all of them at once. */
function errorsOf(body: ImportBody, target: ImportTarget): ImportIssue[] {
  const { data } = body;
  const names = data.features.map((f) => f.name);
  const importing = new Set(names);
  const segmentNames = new Map(data.segments.map((s) => [s.id, s.name]));
  // RE2, not RegExp: the pattern is user-supplied. One stored before patterns ran on RE2 that does not
  // compile matches no new name, so the import is refused naming the pattern instead of skipping it.
  const pattern =
    target.namingPattern === null
      ? null
      : (compileNamingPattern(target.namingPattern) ?? { test: () => false });
  const created = names.filter((n) => !target.existing.has(n)).length;
  const usedSegments = data.featureStrategies.flatMap((s) =>
    s.segments.map((id) => segmentNames.get(id) ?? `#${id}`),
  );
  const legalValueGaps = data.contextFields.flatMap((field) => {
    const known = target.contextFields.get(field.name);
    if (!known || known.size === 0) return [];
    return field.legalValues.some((v) => !known.has(v.value)) ? [field.name] : [];
  });
  const parentsMissing = data.dependencies.flatMap((d) =>
    d.dependencies
      .filter((p) => !importing.has(p.feature) && target.existing.get(p.feature)?.project !== body.project)
      .map((p) => `${d.feature} → ${p.feature}`),
  );
  return [
    ...(target.projectExists ? [] : issue('The project does not exist:', [body.project])),
    ...(target.environmentExists
      ? target.environmentLinked || !target.projectExists
        ? []
        : issue('The environment is not enabled in the project:', [body.environment])
      : issue('The environment does not exist:', [body.environment])),
    ...issue(
      'We detected the following features are duplicate in your import data:',
      names.filter((n, i) => names.indexOf(n) !== i),
    ),
    ...issue(
      'The following features already exist in another project:',
      names.filter((n) => {
        const found = target.existing.get(n);
        return found !== undefined && !found.archived && found.project !== body.project;
      }),
    ),
    ...issue(
      'The following features are archived; revive them before importing:',
      names.filter((n) => target.existing.get(n)?.archived === true),
    ),
    ...issue(
      `The following features do not match the project's naming pattern (${target.namingPattern}):`,
      pattern ? names.filter((n) => !target.existing.has(n) && !pattern.test(n)) : [],
    ),
    ...(target.featureLimit !== null && target.liveInProject + created > target.featureLimit
      ? issue(`The import would pass the project's feature limit of ${target.featureLimit}:`, [
          `${target.liveInProject} + ${created} new features`,
        ])
      : []),
    ...issue(
      'We detected the following segments in the import file that need to be created first:',
      usedSegments.filter((s) => !target.segmentsByName.has(s)),
    ),
    ...issue(
      'We detected the following context fields that do not have matching legal values with the imported ones:',
      legalValueGaps,
    ),
    ...issue(
      'The following dependencies name a parent that is neither imported nor in the project:',
      parentsMissing,
    ),
    ...issue(
      'The following strategies, variants or tags name a feature that is not in the import:',
      [
        ...data.featureStrategies.map((s) => s.featureName),
        ...data.featureEnvironments.map((e) => e.featureName),
        ...data.featureTags.map((t) => t.featureName),
        ...data.dependencies.map((d) => d.feature),
      ].filter((n) => !importing.has(n)),
    ),
  ];
}

/** Things the import will do that the caller may want to know first. */
function warningsOf(body: ImportBody, target: ImportTarget): ImportIssue[] {
  const { data } = body;
  return [
    ...issue(
      'The following features already exist and will be updated (their strategies in this environment replaced):',
      data.features.map((f) => f.name).filter((n) => target.existing.get(n)?.project === body.project),
    ),
    ...issue(
      'The following context fields will be created:',
      data.contextFields.map((c) => c.name).filter((n) => !target.contextFields.has(n)),
    ),
    ...issue(
      'The following tag types will be created:',
      data.featureTags.map((t) => t.tagType).filter((t) => !target.tagTypes.has(t)),
    ),
  ];
}

/** The permissions the import needs here that the caller lacks, each checked by the policy. */
async function missingPermissions(
  policy: Policy,
  caller: Caller,
  body: ImportBody,
  target: ImportTarget,
): Promise<ImportIssue[]> {
  const { data } = body;
  const needed: [Permission, { project?: string; environment?: string }, boolean][] = [
    ['CREATE_FEATURE', { project: body.project }, data.features.some((f) => !target.existing.has(f.name))],
    ['UPDATE_FEATURE', { project: body.project }, true],
    ['UPDATE_FEATURE_ENVIRONMENT', { project: body.project, environment: body.environment }, true],
    ['CREATE_FEATURE_STRATEGY', { project: body.project, environment: body.environment }, true],
    ['DELETE_FEATURE_STRATEGY', { project: body.project, environment: body.environment }, true],
    [
      'UPDATE_FEATURE_ENVIRONMENT_VARIANTS',
      { project: body.project, environment: body.environment },
      data.featureEnvironments.some((e) => e.variants.length > 0),
    ],
    ['UPDATE_FEATURE_DEPENDENCY', { project: body.project }, data.dependencies.length > 0],
    ['CREATE_CONTEXT_FIELD', {}, data.contextFields.some((c) => !target.contextFields.has(c.name))],
    ['CREATE_TAG_TYPE', {}, data.featureTags.some((t) => !target.tagTypes.has(t.tagType))],
  ];
  const missing: string[] = [];
  for (const [permission, scope, wanted] of needed) {
    if (!wanted) continue;
    try {
      await policy.require(caller, permission, scope);
    } catch (error) {
      if (!isFlagstaffError(error, 'FORBIDDEN')) throw error;
      missing.push(permission);
    }
  }
  return issue('We detected you are missing the following permissions:', missing);
}

/** Everything wrong with an import, before anything is written. */
export async function validateImport(
  repos: ReadRepositories,
  policy: Policy,
  caller: Caller,
  body: ImportBody,
): Promise<{ validation: ImportValidation; target: ImportTarget }> {
  const target = await readTarget(repos, body);
  const validation = {
    errors: errorsOf(body, target),
    warnings: warningsOf(body, target),
    permissions: target.projectExists ? await missingPermissions(policy, caller, body, target) : [],
  };
  return { validation, target };
}
