import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import { ApiError, fieldError, unwrap } from '../../api/errors';
import type { TagType } from '../../api/types';
import { Card, ErrorNotice, Field, Loading, PageHeader } from '../../components/ui/page';
import { tagTypeSchema } from '../../lib/domain';
import { useApiMutation } from '../../lib/use-api-mutation';
import { fieldErrors } from '../../lib/zod-errors';
import { useCan } from '../auth/permissions';
import { TagTypeDialog } from './tag-type-dialog';

const key = ['tag-types'];

/** Tag types: the kinds of tags features can carry. */
export default function TagTypesPage() {
  const can = useCan();
  const list = useQuery({
    queryKey: key,
    queryFn: () => unwrap<{ tagTypes: TagType[] }>(api.GET('/api/admin/tag-types')),
  });
  const [form, setForm] = useState({ name: '', description: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [editing, setEditing] = useState<TagType | null>(null);
  const create = useApiMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/api/admin/tag-types', {
          body: { name: form.name, description: form.description || null },
        }),
      ),
    invalidates: [key],
    toastErrors: false,
    success: 'Tag type created',
    onSuccess: () => setForm({ name: '', description: '' }),
  });
  const remove = useApiMutation({
    mutationFn: (name: string) =>
      unwrap(api.DELETE('/api/admin/tag-types/{name}', { params: { path: { name } } })),
    invalidates: [key],
    success: 'Tag type deleted',
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = tagTypeSchema.safeParse(form);
    setErrors(parsed.success ? {} : fieldErrors(parsed.error));
    if (parsed.success) create.mutate();
  };
  // A refusal of the name (taken: 409, or invalid) shows under the name; anything else above the button.
  const nameRefused =
    create.error instanceof ApiError && create.error.status === 409
      ? create.error.message
      : fieldError(create.error, ['name'])?.message;
  const shownErrors = Object.keys(errors).length ? errors : nameRefused ? { name: nameRefused } : {};
  return (
    <>
      <PageHeader title="Tag types" subtitle="Tags group features across projects (simple, team, jira…)." />
      <div className="grid grid-2">
        <Card title="All tag types">
          {list.isPending ? <Loading /> : null}
          <ErrorNotice error={list.error} />
          <table>
            <tbody>
              {list.data?.tagTypes.map((t) => (
                <tr key={t.name}>
                  <td className="cell-name">{t.name}</td>
                  <td className="muted">{t.description}</td>
                  <td className="cell-actions">
                    <button
                      type="button"
                      className="btn btn-small"
                      aria-label={`Edit ${t.name}`}
                      disabled={!can('UPDATE_TAG_TYPE')}
                      onClick={() => setEditing(t)}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className="btn btn-small btn-ghost"
                      aria-label={`Delete ${t.name}`}
                      disabled={!can('DELETE_TAG_TYPE')}
                      onClick={() => remove.mutate(t.name)}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
        <Card title="New tag type">
          <form onSubmit={submit} noValidate>
            <Field label="Name" htmlFor="tt-name" error={shownErrors.name}>
              <input
                id="tt-name"
                value={form.name}
                onChange={(e) => setForm({ ...form, name: e.target.value })}
              />
            </Field>
            <Field label="Description" htmlFor="tt-desc">
              <input
                id="tt-desc"
                value={form.description}
                onChange={(e) => setForm({ ...form, description: e.target.value })}
              />
            </Field>
            {create.error && !nameRefused ? <ErrorNotice error={create.error} /> : null}
            <div className="form-actions">
              <button type="submit" className="btn btn-primary" disabled={!can('CREATE_TAG_TYPE')}>
                Create tag type
              </button>
            </div>
          </form>
        </Card>
      </div>
      {editing ? <TagTypeDialog tagType={editing} onClose={() => setEditing(null)} /> : null}
    </>
  );
}
