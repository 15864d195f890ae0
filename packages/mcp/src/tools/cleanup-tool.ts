import type { FeatureStrategy, FeatureView } from '@flagstaff/core';
import { featureNameSchema } from '@flagstaff/core';
import { z } from 'zod';
import { defineTool, projectOf, ToolError } from './define.js';

/**
 * How `flagstaff typegen` writes a flag in `FlagVariants`: a bare key when it is an identifier, a
 * quoted one otherwise (packages/server/src/cli/typegen.ts; a server test keeps the two in step).
 */
export const typegenKey = (name: string): string =>
  /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);

/** Whether a strategy lets everyone through: no constraints or segments, and 100% when it is a rollout. */
const everyone = (s: FeatureStrategy): boolean =>
  !s.disabled &&
  s.constraints.length === 0 &&
  s.segments.length === 0 &&
  (s.name === 'default' || (s.name === 'flexibleRollout' && s.parameters.rollout === '100'));

/**
 * The branch the code should keep, judged from production-type environments (all of them when there
 * are none): off everywhere → `disabled`; on for everyone everywhere → `enabled`; else undecided.
 */
function suggestedKeep(feature: FeatureView): { keep: string | null; why: string } {
  const production = feature.environments.filter((e) => e.type === 'production');
  const judged = production.length > 0 ? production : feature.environments;
  const where = production.length > 0 ? 'production environments' : 'environments';
  if (judged.every((e) => !e.enabled)) return { keep: 'disabled', why: `it is off in all ${where}` };
  if (judged.every((e) => e.enabled && e.strategies.some(everyone))) {
    const variants = new Set(judged.flatMap((e) => e.variants.map((v) => v.name)));
    if (variants.size === 1) {
      const [only] = variants;
      return { keep: only!, why: `it is on for everyone in all ${where}, with the one variant "${only}"` };
    }
    if (variants.size === 0) return { keep: 'enabled', why: `it is on for everyone in all ${where}` };
  }
  return { keep: null, why: `it is partly rolled out or differs between ${where}; ask which branch to keep` };
}

const variantNames = (feature: FeatureView): string[] => [
  ...new Set(
    feature.environments.flatMap((e) => [
      ...e.variants.map((v) => v.name),
      ...e.strategies.flatMap((s) => s.variants.map((v) => v.name)),
    ]),
  ),
];

function instructions(name: string, keep: string | null, variants: string[]): string[] {
  const quoted = JSON.stringify(name);
  const branch =
    keep === 'enabled'
      ? 'Keep the code of the enabled branch (isEnabled true) and delete the disabled/fallback branch.'
      : keep === 'disabled'
        ? 'Keep the code of the disabled/fallback branch (isEnabled false) and delete the enabled branch.'
        : keep
          ? `Keep the code for variant "${keep}" and delete the branches of the other variants (${variants
              .filter((v) => v !== keep)
              .join(', ')}) and of the disabled variant.`
          : 'Ask the user which branch to keep (enabled, disabled or a variant) before changing code.';
  return [
    `Find every use of the flag: search the code for the string ${quoted} (isEnabled(${quoted}), getVariant(${quoted}), useFlag(${quoted}), OpenFeature getBooleanValue(${quoted}, …), constants holding it).`,
    branch,
    `Replace each check with the kept branch, then remove variables, imports, helpers and tests that only served the flag.`,
    `If the code uses types from \`flagstaff typegen\`, regenerate them after archiving (the key FlagVariants[${quoted}] and "${name}" in flagNames disappear), or remove them by hand.`,
    'Archive the flag (this tool with archive: true) only once no deployed code reads it: SDKs treat an archived flag as unknown, so it evaluates as disabled.',
  ];
}

export const cleanupFlag = defineTool({
  name: 'cleanup_flag',
  title: 'Remove a flag from the code (and archive it)',
  description:
    'Tells you how to remove a flag from the code: the flag name to search for, the branch or variant ' +
    'to keep (suggested from its production state, or "keep"), and its typegen symbol. With ' +
    '"archive": true it also archives the flag (needs DELETE_FEATURE in the project); it acts directly, ' +
    'there are no change requests.',
  input: z.object({
    name: featureNameSchema.describe('The flag name'),
    project: z.string().min(1).optional().describe('The project id; found from the flag name when left out'),
    keep: z
      .string()
      .min(1)
      .optional()
      .describe('The branch to keep: "enabled", "disabled" or a variant name; suggested when left out'),
    archive: z.boolean().default(false).describe('Archive the flag now (do it once the code is gone)'),
  }),
  hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  async run(backend, { name, project, keep, archive }) {
    const at = await projectOf(backend, name, project);
    const feature = await backend.getFeature(at, name);
    const variants = variantNames(feature);
    if (keep !== undefined && keep !== 'enabled' && keep !== 'disabled' && !variants.includes(keep))
      throw new ToolError(
        `"keep" must be "enabled", "disabled" or a variant of ${name} (${variants.join(', ') || 'it has none'}), not "${keep}".`,
      );
    const suggestion = suggestedKeep(feature);
    const kept = keep ?? suggestion.keep;
    if (archive) await backend.archiveFeature(at, name);
    const steps = instructions(name, kept, variants);
    return {
      summary: `${archive ? 'Archived' : 'Clean-up plan for'} ${name}: keep ${kept ?? '(ask the user)'}${
        keep === undefined ? `, because ${suggestion.why}` : ''
      }`,
      data: {
        flag: name,
        project: at,
        keep: kept,
        reason: keep === undefined ? suggestion.why : 'chosen by the caller',
        variants,
        typegen: {
          flagName: JSON.stringify(name),
          variantsKey: `FlagVariants[${JSON.stringify(name)}]`,
          key: typegenKey(name),
        },
        searchFor: [JSON.stringify(name), `'${name}'`, `\`${name}\``],
        archived: archive,
        steps,
      },
    };
  },
});
