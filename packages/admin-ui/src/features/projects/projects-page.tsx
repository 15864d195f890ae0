import type { CreateProjectInput } from '@flagstaff/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api } from '../../api/client';
import { ActionButton } from '../../components/ui/action-button';
import { Dialog } from '../../components/ui/dialog';
import { Badge, EmptyState, ErrorNotice, Field, Loading, PageHeader } from '../../components/ui/page';
import { createProjectSchema } from '../../lib/domain';
import { useFormErrors } from '../../lib/form-errors';
import { useApiMutation } from '../../lib/use-api-mutation';
import { useWhyNot } from '../auth/permissions';
import { answerOf, listProjectsQueryOptions, projectKeys } from './api';

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
  const create = useApiMutation({
    mutationFn: (body: CreateProjectInput) => answerOf(api.POST('/api/admin/projects', { body })),
    invalidates: [projectKeys.all],
    success: (p) => `Project ${p.name} created`,
    toastErrors: false,
    onSuccess: (p) => {
      onOpenChange(false);
      navigate(`/projects/${encodeURIComponent(p.id)}`);
    },
  });
  const errors = useFormErrors(create.error, [
    'id',
    'name',
    'description',
    'featureNaming',
    'featureNaming.pattern',
    'featureNaming.example',
    'featureNaming.description',
  ]);
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
    if (errors.check(createProjectSchema, body)) create.mutate(body);
  };
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm({ ...form, [key]: e.target.value });
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Create project">
      <form onSubmit={submit} noValidate>
        <div className="form-grid">
          <Field label="Project id" htmlFor="project-id" error={errors.of('id')}>
            <input id="project-id" value={form.id} onChange={set('id')} placeholder="checkout" />
          </Field>
          <Field label="Name" htmlFor="project-name" error={errors.of('name')}>
            <input id="project-name" value={form.name} onChange={set('name')} placeholder="Checkout" />
          </Field>
        </div>
        <Field label="Description" htmlFor="project-description" error={errors.of('description')}>
          <input id="project-description" value={form.description} onChange={set('description')} />
        </Field>
        <fieldset className="card">
          <legend>Feature naming (optional)</legend>
          <Field
            label="Pattern"
            htmlFor="naming-pattern"
            error={errors.of('featureNaming.pattern') ?? errors.of('featureNaming')}
            hint="A regular expression in RE2 syntax (no lookaround or backreferences), without slashes or flags; it must match the whole name."
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
            <Field label="Example" htmlFor="naming-example" error={errors.of('featureNaming.example')}>
              <input id="naming-example" value={form.example} onChange={set('example')} />
            </Field>
            <Field
              label="Description"
              htmlFor="naming-description"
              error={errors.of('featureNaming.description')}
            >
              <input
                id="naming-description"
                value={form.namingDescription}
                onChange={set('namingDescription')}
              />
            </Field>
          </div>
        </fieldset>
        <ErrorNotice error={errors.rest} />
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
  const projects = useQuery(listProjectsQueryOptions());
  const whyNot = useWhyNot();
  const [creating, setCreating] = useState(false);
  return (
    <>
      <PageHeader
        title="Projects"
        subtitle="Projects group feature flags and decide who may change them."
        actions={
          <ActionButton
            type="button"
            className="btn btn-primary"
            disabledReason={whyNot('CREATE_PROJECT')}
            onClick={() => setCreating(true)}
          >
            New project
          </ActionButton>
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
