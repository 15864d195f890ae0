import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import type { TagType } from '../../api/types';
import { ActionButton } from '../../components/ui/action-button';
import { Card, ErrorNotice, Field, Loading, PageHeader } from '../../components/ui/page';
import { answerOf } from '../../lib/api-answer';
import { tagTypeSchema } from '../../lib/domain';
import { useFormErrors } from '../../lib/form-errors';
import { useApiMutation } from '../../lib/use-api-mutation';
import { useWhyNot } from '../auth/permissions';
import { tagTypesKey as key, listTagTypesQueryOptions } from './api/tag-types';
import { TagTypeDialog } from './tag-type-dialog';

/** Tag types: the kinds of tags features can carry. */
export default function TagTypesPage() {
  const whyNot = useWhyNot();
  const list = useQuery(listTagTypesQueryOptions());
  const [form, setForm] = useState({ name: '', description: '' });
  const [editing, setEditing] = useState<TagType | null>(null);
  const create = useApiMutation({
    mutationFn: () =>
      answerOf(
        api.POST('/api/admin/tag-types', {
          body: { name: form.name, description: form.description || null },
        }),
      ),
    invalidates: [key],
    success: 'Tag type created',
    toastErrors: false,
    onSuccess: () => setForm({ name: '', description: '' }),
  });
  // A refusal naming no property (a taken name) concerns the name, the form's identity.
  const errors = useFormErrors(create.error, ['name', 'description'], { fallbackField: 'name' });
  const remove = useApiMutation({
    mutationFn: (name: string) =>
      answerOf(api.DELETE('/api/admin/tag-types/{name}', { params: { path: { name } } })),
    invalidates: [key],
    success: 'Tag type deleted',
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (errors.check(tagTypeSchema, form)) create.mutate();
  };
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
                    <ActionButton
                      type="button"
                      className="btn btn-small"
                      aria-label={`Edit ${t.name}`}
                      disabledReason={whyNot('UPDATE_TAG_TYPE')}
                      onClick={() => setEditing(t)}
                    >
                      Edit
                    </ActionButton>
                    <ActionButton
                      type="button"
                      className="btn btn-small btn-ghost"
                      aria-label={`Delete ${t.name}`}
                      disabledReason={whyNot('DELETE_TAG_TYPE')}
                      onClick={() => remove.mutate(t.name)}
                    >
                      Delete
                    </ActionButton>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
        <Card title="New tag type">
          <form onSubmit={submit} noValidate>
            <Field label="Name" htmlFor="tt-name" error={errors.of('name')}>
              <input
                id="tt-name"
                value={form.name}
                onChange={(e) => setForm({ ...form, name: e.target.value })}
              />
            </Field>
            <Field label="Description" htmlFor="tt-desc" error={errors.of('description')}>
              <input
                id="tt-desc"
                value={form.description}
                onChange={(e) => setForm({ ...form, description: e.target.value })}
              />
            </Field>
            <ErrorNotice error={errors.rest} />
            <div className="form-actions">
              <ActionButton
                type="submit"
                className="btn btn-primary"
                disabledReason={whyNot('CREATE_TAG_TYPE')}
              >
                Create tag type
              </ActionButton>
            </div>
          </form>
        </Card>
      </div>
      {editing ? <TagTypeDialog tagType={editing} onClose={() => setEditing(null)} /> : null}
    </>
  );
}
