import type { CreateFeatureInput } from '@flagstaff/core';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../api/client';
import type { Project } from '../../api/types';
import { Dialog } from '../../components/ui/dialog';
import { ErrorNotice, Field } from '../../components/ui/page';
import { answerOf } from '../../lib/api-answer';
import { compileNamingPattern, createFeatureSchema, FEATURE_TYPES } from '../../lib/domain';
import { useFormErrors } from '../../lib/form-errors';
import { useApiMutation } from '../../lib/use-api-mutation';
import { projectKeys } from './api';

/** Creates a feature, checking the project's naming pattern before sending. */
export function CreateFeatureDialog({
  project,
  open,
  onOpenChange,
}: {
  project: Project;
  open: boolean;
  onOpenChange(o: boolean): void;
}) {
  const navigate = useNavigate();
  const [form, setForm] = useState<{
    name: string;
    type: (typeof FEATURE_TYPES)[number];
    description: string;
    impressionData: boolean;
  }>({
    name: '',
    type: 'release',
    description: '',
    impressionData: false,
  });
  const naming = project.featureNaming;
  const create = useApiMutation({
    mutationFn: (body: CreateFeatureInput) =>
      answerOf(
        api.POST('/api/admin/projects/{projectId}/features', {
          params: { path: { projectId: project.id } },
          body,
        }),
      ),
    invalidates: [projectKeys.features(project.id)],
    success: (f) => `Feature ${f.name} created`,
    toastErrors: false,
    onSuccess: (f) => {
      onOpenChange(false);
      navigate(`/projects/${encodeURIComponent(project.id)}/features/${encodeURIComponent(f.name)}`);
    },
  });
  const errors = useFormErrors(create.error, ['name', 'type', 'description', 'impressionData']);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: CreateFeatureInput = { ...form, description: form.description || null };
    // RE2 like the server: a native RegExp would let a hostile pattern freeze this tab.
    const mismatch =
      naming.pattern && compileNamingPattern(naming.pattern)?.test(form.name) === false
        ? [{ path: 'name', message: `must match the project's naming pattern ${naming.pattern}` }]
        : [];
    if (errors.check(createFeatureSchema, body, mismatch)) create.mutate(body);
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Create feature flag">
      <form onSubmit={submit} noValidate>
        {naming.pattern ? (
          <div className="notice notice-info">
            <div>
              Names must match <code>{naming.pattern}</code>
            </div>
            {naming.example ? (
              <div>
                Example: <code>{naming.example}</code>
              </div>
            ) : null}
            {naming.description ? <div>{naming.description}</div> : null}
          </div>
        ) : null}
        <Field label="Name" htmlFor="feature-name" error={errors.of('name')}>
          <input
            id="feature-name"
            value={form.name}
            onChange={(e) => setForm({ ...form, name: e.target.value })}
            autoFocus
          />
        </Field>
        <Field label="Type" htmlFor="feature-type" error={errors.of('type')}>
          <select
            id="feature-type"
            value={form.type}
            onChange={(e) =>
              setForm({ ...form, type: FEATURE_TYPES.find((t) => t === e.target.value) ?? 'release' })
            }
          >
            {FEATURE_TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </Field>
        <Field label="Description" htmlFor="feature-description" error={errors.of('description')}>
          <textarea
            id="feature-description"
            value={form.description}
            onChange={(e) => setForm({ ...form, description: e.target.value })}
          />
        </Field>
        <label className="check">
          <input
            type="checkbox"
            checked={form.impressionData}
            onChange={(e) => setForm({ ...form, impressionData: e.target.checked })}
          />
          Collect impression data
        </label>
        <ErrorNotice error={errors.rest} />
        <div className="form-actions">
          <button type="button" className="btn" onClick={() => onOpenChange(false)}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={create.isPending}>
            Create feature
          </button>
        </div>
      </form>
    </Dialog>
  );
}
