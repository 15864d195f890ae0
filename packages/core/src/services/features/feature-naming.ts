import type { Project } from '../../domain/project.js';
import { FlagstaffError } from '../../errors.js';

/** Refuses a name outside the project's feature naming pattern, quoting the example when there is one. */
export function requireNamingPattern(project: Project, name: string): void {
  const pattern = project.featureNaming.pattern;
  if (!pattern || new RegExp(`^${pattern}$`).test(name)) return;
  const example = project.featureNaming.example ? ` Example: "${project.featureNaming.example}".` : '';
  throw new FlagstaffError(
    'VALIDATION',
    `"name" "${name}" does not match the project's feature naming pattern "${pattern}".${example}`,
    { path: 'name' },
  );
}
