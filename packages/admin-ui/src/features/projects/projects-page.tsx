import type { CreateProjectInput } from '@flagstaff/core';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../../api/client';
import { errorMessage, fieldError, unwrap } from '../../api/errors';
import type { Project } from '../../api/types';
import { Dialog } from '../../components/ui/dialog';
import { Badge, EmptyState, ErrorNotice, Field, Loading, PageHeader } from '../../components/ui/page';
import { createProjectSchema } from '../../lib/domain';
import { useApiMutation } from '../../lib/use-api-mutation';
import { fieldErrors } from '../../lib/zod-errors';
import { useCan } from '../auth/permissions';
import { projectKeys, useProjects } from './api';

function CreateProjectDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const navigate = useNavigate();
  const [form, setForm] = useState({
    id: '',
    name: '',
    description: '',
    pattern: '',
    example: '',
    namingDescription: '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useApiMutation({
    mutationFn: (body: CreateProjectInput) => unwrap<Project>(api.POST('/api/admin/projects', { body })),
    invalidates: [projectKeys.all],
    success: (p) => `Project ${p.name} created`,
    toastErrors: false,
    onSuccess: (p) => {
      onOpenChange(false);
      navigate(`/projects/${encodeURIComponent(p.id)}`);
    },
  });
  const serverField = fieldError(create.error, ['id', 'name', 'featureNaming']);
  const shownErrors = serverField ? { [serverField.field]: serverField.message, ...errors } : errors;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: CreateProjectInput = {
      id: form.id,
      name: form.name,
      description: form.description || null,
      featureNaming: form.pattern
        ? {
            pattern: form.pattern,
            example: form.example || null,
            description: form.namingDescription || null,
          }
        : undefined,
    };
    const parsed = createProjectSchema.safeParse(body);
    if (!parsed.success) return setErrors(fieldErrors(parsed.error));
    setErrors({});
    create.mutate(body);
  };
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm({ ...form, [key]: e.target.value });
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Create project">
      <form onSubmit={submit} noValidate>
        <div className="form-grid">
          <Field label="Project id" htmlFor="project-id" error={shownErrors.id}>
            <input id="project-id" value={form.id} onChange={set('id')} placeholder="checkout" />
          </Field>
          <Field label="Name" htmlFor="project-name" error={shownErrors.name}>
            <input id="project-name" value={form.name} onChange={set('name')} placeholder="Checkout" />
          </Field>
        </div>
        <Field label="Description" htmlFor="project-description">
          <input id="project-description" value={form.description} onChange={set('description')} />
        </Field>
        <fieldset className="card">
          <legend>Feature naming (optional)</legend>
          <Field
            label="Pattern"
            htmlFor="naming-pattern"
            error={shownErrors.featureNaming}
            hint="A JavaScript regular expression, without slashes or flags."
          >
            <input
              id="naming-pattern"
              className="mono"
              value={form.pattern}
              onChange={set('pattern')}
              placeholder="^checkout-.+"
            />
          </Field>
          <div className="form-grid">
            <Field label="Example" htmlFor="naming-example">
              <input id="naming-example" value={form.example} onChange={set('example')} />
            </Field>
            <Field label="Description" htmlFor="naming-description">
              <input
                id="naming-description"
                value={form.namingDescription}
                onChange={set('namingDescription')}
              />
            </Field>
          </div>
        </fieldset>
        {create.error && !serverField ? <ErrorNotice error={errorMessage(create.error)} /> : null}
        <div className="form-actions">
          <button type="button" className="btn" onClick={() => onOpenChange(false)}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={create.isPending}>
            Create project
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** Every project the caller can see. */
export default function ProjectsPage() {
  const projects = useProjects();
  const can = useCan();
  const [creating, setCreating] = useState(false);
  return (
    <>
      <PageHeader
        title="Projects"
        subtitle="Projects group feature flags and decide who may change them."
        actions={
          <button
            type="button"
            className="btn btn-primary"
            disabled={!can('CREATE_PROJECT')}
            onClick={() => setCreating(true)}
          >
            New project
          </button>
        }
      />
      {projects.isPending ? <Loading /> : null}
      <ErrorNotice error={projects.error} />
      {projects.data?.length === 0 ? <EmptyState>No projects yet.</EmptyState> : null}
      <div className="grid grid-3">
        {projects.data?.map((p) => (
          <Link key={p.id} to={`/projects/${encodeURIComponent(p.id)}`} className="card project-card">
            <div className="row-between">
              <h2>{p.name}</h2>
              <Badge tone={p.mode === 'open' ? 'good' : 'info'}>{p.mode}</Badge>
            </div>
            <p className="muted">{p.description || <code>{p.id}</code>}</p>
          </Link>
        ))}
      </div>
      <CreateProjectDialog open={creating} onOpenChange={setCreating} />
    </>
  );
}
