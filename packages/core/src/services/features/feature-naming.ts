import { compileNamingPattern } from '../../domain/naming-pattern.js';
import type { Project } from '../../domain/project.js';
import { FlagstaffError } from '../../errors.js';

/** Refuses a name outside the project's feature naming pattern, quoting the example when there is one. */
export function requireNamingPattern(project: Project, name: string): void {
  const pattern = project.featureNaming.pattern;
  if (!pattern) return;
  const compiled = compileNamingPattern(pattern);
  // A pattern stored before patterns ran on RE2 may not compile: refuse rather than skip the rule.
  if (!compiled)
    throw new FlagstaffError(
      'VALIDATION',
      `"name" cannot be checked: project "${project.id}"'s feature naming pattern "${pattern}" is not RE2 syntax; fix the project's "featureNaming.pattern".`,
      { path: 'name' },
    );
  if (compiled.test(name)) return;
  const example = project.featureNaming.example ? ` Example: "${project.featureNaming.example}".` : '';
  throw new FlagstaffError(
    'VALIDATION',
    `"name" "${name}" does not match the project's feature naming pattern "${pattern}".${example}`,
    { path: 'name' },
  );
}
