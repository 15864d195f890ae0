import type { UpdateProjectInput } from '@flagstaff/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import { ApiError } from '../../api/errors';
import type { Project } from '../../api/types';
import { Card, ErrorNotice, Field } from '../../components/ui/page';
import { compileNamingPattern, updateProjectSchema } from '../../lib/domain';
import { useApiMutation } from '../../lib/use-api-mutation';
import { answerOf, projectKeys, stickinessOptionsQueryOptions } from './api';

const MODES = [
  ['open', 'Open', 'Anyone may see the project; Editors may change it.'],
  ['protected', 'Protected', 'Anyone may see it; only its members may change it.'],
  ['private', 'Private', 'Only its members (and Admins) see it at all.'],
] as const;

/** The form's fields, keyed the way the server's messages name them. */
type FieldKey =
  | 'name'
  | 'description'
  | 'mode'
  | 'defaultStickiness'
  | 'featureLimit'
  | 'pattern'
  | 'example';
const PATH_TO_FIELD: Record<string, FieldKey> = {
  name: 'name',
  description: 'description',
  mode: 'mode',
  defaultStickiness: 'defaultStickiness',
  featureLimit: 'featureLimit',
  'featureNaming.pattern': 'pattern',
  'featureNaming.example': 'example',
  featureNaming: 'pattern',
};

/** Maps a zod issue path or a server message's leading `"path"` to the field to show it next to. */
const fieldOf = (path: string): FieldKey | undefined => PATH_TO_FIELD[path];

/** Whether a name matches the pattern, for the live check; null when there is nothing to say. */
function tryName(pattern: string, name: string): { ok: boolean; text: string } | null {
  if (!pattern || !name) return null;
  const compiled = compileNamingPattern(pattern);
  if (!compiled) return null;
  return compiled.test(name)
    ? { ok: true, text: `"${name}" matches the pattern.` }
    : { ok: false, text: `"${name}" does not match the pattern.` };
}

/** Name, description, collaboration mode, default stickiness, feature limit and naming pattern. */
export function GeneralSettingsCard({ project, canEdit }: { project: Project; canEdit: boolean }) {
  const stickiness = useQuery(stickinessOptionsQueryOptions());
  const [form, setForm] = useState({
    name: project.name,
    description: project.description ?? '',
    mode: project.mode,
    defaultStickiness: project.defaultStickiness,
    featureLimit: project.featureLimit === null ? '' : String(project.featureLimit),
    pattern: project.featureNaming.pattern ?? '',
    example: project.featureNaming.example ?? '',
    namingDescription: project.featureNaming.description ?? '',
  });
  const [trial, setTrial] = useState('');
  const [errors, setErrors] = useState<Partial<Record<FieldKey, string>>>({});
  const save = useApiMutation({
    mutationFn: (body: UpdateProjectInput) =>
      answerOf(
        api.PUT('/api/admin/projects/{projectId}', { params: { path: { projectId: project.id } }, body }),
      ),
    invalidates: [projectKeys.all],
    success: 'Project settings saved',
    toastErrors: false,
  });
  const serverPath = save.error instanceof ApiError ? /^"([^"]+)"/.exec(save.error.message)?.[1] : undefined;
  const serverField = serverPath ? fieldOf(serverPath) : undefined;
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));
  // The pattern is checked as it is typed, with the same RE2 the server uses.
  const patternProblem =
    form.pattern && !compileNamingPattern(form.pattern)
      ? 'Not a valid pattern: use RE2 syntax (no backreferences or lookaround), at most 500 characters.'
      : null;
  const trialResult = tryName(form.pattern, trial);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const limit = form.featureLimit.trim();
    const body: UpdateProjectInput = {
      name: form.name.trim(),
      description: form.description.trim() || null,
      mode: form.mode,
      defaultStickiness: form.defaultStickiness,
      featureLimit: limit === '' ? null : Number(limit),
      featureNaming: {
        pattern: form.pattern || null,
        example: form.pattern ? form.example || null : null,
        description: form.pattern ? form.namingDescription || null : null,
      },
    };
    const parsed = updateProjectSchema.safeParse(body);
    save.reset();
    if (!parsed.success) {
      const found: Partial<Record<FieldKey, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = fieldOf(issue.path.join('.'));
        if (field) found[field] ??= issue.message;
      }
      return setErrors(found);
    }
    setErrors({});
    save.mutate(body);
  };
  const shown: Partial<Record<FieldKey, string>> = {
    ...(serverField && save.error ? { [serverField]: save.error.message } : {}),
    ...errors,
    ...(patternProblem ? { pattern: patternProblem } : {}),
  };
  return (
    <Card title="General">
      <form onSubmit={submit} noValidate aria-label="Project settings">
        <fieldset disabled={!canEdit} className="plain">
          <div className="form-grid">
            <Field label="Name" htmlFor="settings-name" error={shown.name}>
              <input id="settings-name" value={form.name} onChange={set('name')} />
            </Field>
            <Field label="Project id" htmlFor="settings-id" hint="The id cannot change.">
              <input id="settings-id" value={project.id} readOnly disabled />
            </Field>
          </div>
          <Field label="Description" htmlFor="settings-description" error={shown.description}>
            <textarea
              id="settings-description"
              rows={2}
              value={form.description}
              onChange={set('description')}
            />
          </Field>
          <div className="field" role="radiogroup" aria-labelledby="settings-mode-label">
            <span id="settings-mode-label" className="field-label">
              Collaboration mode
            </span>
            <div className="mode-options">
              {MODES.map(([value, label, help]) => (
                <label key={value} className={form.mode === value ? 'mode-option selected' : 'mode-option'}>
                  <input
                    type="radio"
                    name="settings-mode"
                    value={value}
                    checked={form.mode === value}
                    onChange={() => setForm((f) => ({ ...f, mode: value }))}
                  />
                  <span>
                    <strong>{label}</strong>
                    <span className="hint">{help}</span>
                  </span>
                </label>
              ))}
            </div>
            {shown.mode ? <div className="field-error">{shown.mode}</div> : null}
          </div>
          <div className="form-grid">
            <Field label="Default stickiness" htmlFor="settings-stickiness" error={shown.defaultStickiness}>
              <select
                id="settings-stickiness"
                value={form.defaultStickiness}
                onChange={set('defaultStickiness')}
              >
                {[...new Set([form.defaultStickiness, ...(stickiness.data ?? ['default'])])].map((s) => (
                  <option key={s}>{s}</option>
                ))}
              </select>
            </Field>
            <Field
              label="Feature limit"
              htmlFor="settings-limit"
              error={shown.featureLimit}
              hint="Most live flags the project may hold; empty for no limit."
            >
              <input
                id="settings-limit"
                type="number"
                min={1}
                value={form.featureLimit}
                onChange={set('featureLimit')}
              />
            </Field>
          </div>
          <h3 className="subhead">Feature naming</h3>
          <Field
            label="Naming pattern"
            htmlFor="settings-pattern"
            error={shown.pattern}
            hint="A regular expression (RE2) every new flag name must match in full, e.g. checkout-[a-z-]+"
          >
            <input id="settings-pattern" value={form.pattern} onChange={set('pattern')} spellCheck={false} />
          </Field>
          <div className="form-grid">
            <Field label="Example" htmlFor="settings-example" error={shown.example}>
              <input
                id="settings-example"
                value={form.example}
                onChange={set('example')}
                disabled={!form.pattern}
              />
            </Field>
            <Field label="Naming description" htmlFor="settings-naming-description">
              <input
                id="settings-naming-description"
                value={form.namingDescription}
                onChange={set('namingDescription')}
                disabled={!form.pattern}
              />
            </Field>
          </div>
          <Field label="Does this name match?" htmlFor="settings-try-name">
            <input
              id="settings-try-name"
              value={trial}
              onChange={(e) => setTrial(e.target.value)}
              placeholder="Type a flag name to try the pattern"
              disabled={!form.pattern || Boolean(patternProblem)}
            />
          </Field>
          {trialResult ? (
            <output
              htmlFor="settings-try-name settings-pattern"
              className={trialResult.ok ? 'match-result match-yes' : 'match-result match-no'}
              data-testid="name-check"
            >
              {trialResult.ok ? '✓ ' : '✗ '}
              {trialResult.text}
            </output>
          ) : null}
          {save.error && !serverField ? <ErrorNotice error={save.error} /> : null}
          <div className="form-actions">
            <button type="submit" className="btn btn-primary" disabled={save.isPending}>
              Save settings
            </button>
          </div>
        </fieldset>
      </form>
    </Card>
  );
}
