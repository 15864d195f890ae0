import type { ConstraintInput } from '@flagstaff/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import type { Segment } from '../../api/types';
import { ConstraintEditor, constraintProblem } from '../../components/constraint-editor';
import { ActionButton } from '../../components/ui/action-button';
import { Dialog } from '../../components/ui/dialog';
import { Badge, Card, EmptyState, ErrorNotice, Field, Loading, PageHeader } from '../../components/ui/page';
import { segmentInputSchema } from '../../lib/domain';
import { useFormErrors } from '../../lib/form-errors';
import { useApiMutation } from '../../lib/use-api-mutation';
import { useWhyNot } from '../auth/permissions';
import { answerOf, listContextFieldsQueryOptions, listSegmentsQueryOptions, segmentKeys } from './api';

const key = segmentKeys.all;

function SegmentDialog({ segment, onClose }: { segment: Segment | null; onClose(): void }) {
  const contextFields = useQuery(listContextFieldsQueryOptions()).data ?? [];
  const [name, setName] = useState(segment?.name ?? '');
  const [description, setDescription] = useState(segment?.description ?? '');
  const [constraints, setConstraints] = useState<ConstraintInput[]>(segment?.constraints ?? []);
  const save = useApiMutation({
    mutationFn: () => {
      const body = { name, description: description || null, constraints };
      return answerOf(
        segment
          ? api.PUT('/api/admin/segments/{id}', { params: { path: { id: String(segment.id) } }, body })
          : api.POST('/api/admin/segments', { body }),
      );
    },
    invalidates: [key],
    success: 'Segment saved',
    toastErrors: false,
    onSuccess: onClose,
  });
  const errors = useFormErrors(save.error, ['name', 'description', 'constraints']);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const constraintProblems = constraints.flatMap((c, i) => {
      const message = constraintProblem(c);
      return message ? [{ path: `constraints[${i}]`, message }] : [];
    });
    if (
      errors.check(
        segmentInputSchema,
        { name, description: description || null, constraints },
        constraintProblems,
      )
    )
      save.mutate();
  };
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={segment ? `Edit ${segment.name}` : 'New segment'}
      wide
    >
      <form onSubmit={submit} noValidate>
        <div className="form-grid">
          <Field label="Name" htmlFor="seg-name" error={errors.of('name')}>
            <input id="seg-name" value={name} onChange={(e) => setName(e.target.value)} />
          </Field>
          <Field label="Description" htmlFor="seg-desc" error={errors.of('description')}>
            <input id="seg-desc" value={description} onChange={(e) => setDescription(e.target.value)} />
          </Field>
        </div>
        <h3>Constraints</h3>
        {constraints.map((c, i) => (
          <ConstraintEditor
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are plain values without identity and are only appended or removed
            key={i}
            index={i}
            constraint={c}
            contextFields={contextFields}
            onChange={(next) => setConstraints(constraints.map((x, j) => (j === i ? next : x)))}
            onRemove={() => setConstraints(constraints.filter((_, j) => j !== i))}
          />
        ))}
        <button
          type="button"
          className="btn btn-small"
          onClick={() => setConstraints([...constraints, { contextName: '', operator: 'IN', values: [] }])}
        >
          Add constraint
        </button>
        {errors.of('constraints') ? (
          <div className="field-error" role="alert">
            {errors.of('constraints')}
          </div>
        ) : null}
        <ErrorNotice error={errors.rest} />
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            Save segment
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** Segments: reusable sets of constraints shared by strategies. */
export default function SegmentsPage() {
  const whyNot = useWhyNot();
  const list = useQuery(listSegmentsQueryOptions());
  const [editing, setEditing] = useState<Segment | 'new' | null>(null);
  const remove = useApiMutation({
    mutationFn: (id: number) =>
      answerOf(api.DELETE('/api/admin/segments/{id}', { params: { path: { id: String(id) } } })),
    invalidates: [key],
    success: 'Segment deleted',
  });
  return (
    <>
      <PageHeader
        title="Segments"
        subtitle="Reusable groups of constraints, e.g. beta testers or EU customers."
        actions={
          <ActionButton
            type="button"
            className="btn btn-primary"
            disabledReason={whyNot('CREATE_SEGMENT')}
            onClick={() => setEditing('new')}
          >
            New segment
          </ActionButton>
        }
      />
      <Card>
        {list.isPending ? <Loading /> : null}
        <ErrorNotice error={list.error} />
        {list.data?.segments.length === 0 ? <EmptyState>No segments yet.</EmptyState> : null}
        <table>
          <tbody>
            {list.data?.segments.map((s) => (
              <tr key={s.id}>
                <td className="cell-name">{s.name}</td>
                <td className="muted">
                  {s.description ||
                    s.constraints
                      .map((c) => `${c.contextName} ${c.operator} ${c.value ?? (c.values ?? []).join(', ')}`)
                      .join('; ')}
                </td>
                <td>
                  <Badge>{s.constraints.length} constraint(s)</Badge>
                </td>
                <td className="row">
                  <ActionButton
                    type="button"
                    className="btn btn-small"
                    disabledReason={whyNot('UPDATE_SEGMENT')}
                    onClick={() => setEditing(s)}
                  >
                    Edit
                  </ActionButton>
                  <ActionButton
                    type="button"
                    className="btn btn-small btn-ghost"
                    disabledReason={whyNot('DELETE_SEGMENT')}
                    onClick={() => remove.mutate(s.id)}
                  >
                    Delete
                  </ActionButton>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
      {editing ? (
        <SegmentDialog segment={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      ) : null}
    </>
  );
}
