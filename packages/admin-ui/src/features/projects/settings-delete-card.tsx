import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../api/client';
import type { Project } from '../../api/types';
import { Dialog } from '../../components/ui/dialog';
import { Card, ErrorNotice, Field } from '../../components/ui/page';
import { useApiMutation } from '../../lib/use-api-mutation';
import { answerOf, projectKeys } from './api';

/** Deleting the project: asks for its id, and shows the server's refusal while it holds flags. */
export function DeleteProjectCard({ project, canDelete }: { project: Project; canDelete: boolean }) {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const remove = useApiMutation({
    mutationFn: () =>
      answerOf(
        api.DELETE('/api/admin/projects/{projectId}', { params: { path: { projectId: project.id } } }),
      ),
    invalidates: [projectKeys.all],
    success: `Project ${project.name} deleted`,
    toastErrors: false,
    onSuccess: () => navigate('/projects'),
  });
  const isDefault = project.id === 'default';
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (typed === project.id) remove.mutate();
  };
  return (
    <Card title="Delete project" className="card-danger">
      <div className="row-between">
        <p className="muted">
          {isDefault
            ? 'The default project cannot be deleted.'
            : 'A project can be deleted once it holds no live flags: archive them first. Its archived flags are deleted with it.'}
        </p>
        <button
          type="button"
          className="btn btn-danger"
          disabled={!canDelete || isDefault}
          title={!canDelete ? 'You need the DELETE_PROJECT permission in this project.' : undefined}
          onClick={() => {
            remove.reset();
            setTyped('');
            setOpen(true);
          }}
        >
          Delete project…
        </button>
      </div>
      <Dialog open={open} onOpenChange={setOpen} title={`Delete project ${project.name}?`}>
        <form onSubmit={submit} noValidate>
          <p>
            This deletes <strong>{project.name}</strong> ({project.id}) with its settings, members and
            archived flags. It cannot be undone.
          </p>
          <Field label={`Type ${project.id} to confirm`} htmlFor="delete-project-confirm">
            <input
              id="delete-project-confirm"
              value={typed}
              autoComplete="off"
              onChange={(e) => setTyped(e.target.value)}
            />
          </Field>
          <ErrorNotice error={remove.error} />
          <div className="form-actions">
            <button type="button" className="btn" onClick={() => setOpen(false)}>
              Cancel
            </button>
            <button
              type="submit"
              className="btn btn-danger"
              disabled={typed !== project.id || remove.isPending}
            >
              Delete {project.id}
            </button>
          </div>
        </form>
      </Dialog>
    </Card>
  );
}
