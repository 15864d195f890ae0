import { useState } from 'react';
import { api } from '../../api/client';
import { fieldError, unwrap } from '../../api/errors';
import type { TagType } from '../../api/types';
import { Dialog } from '../../components/ui/dialog';
import { ErrorNotice, Field } from '../../components/ui/page';
import { useApiMutation } from '../../lib/use-api-mutation';

/** Edits a tag type's description (its name is its identity, as in the reference). */
export function TagTypeDialog({ tagType, onClose }: { tagType: TagType; onClose(): void }) {
  const [description, setDescription] = useState(tagType.description ?? '');
  const save = useApiMutation({
    mutationFn: () =>
      unwrap(
        api.PUT('/api/admin/tag-types/{name}', {
          params: { path: { name: tagType.name } },
          body: { name: tagType.name, description: description.trim() || null },
        }),
      ),
    invalidates: [['tag-types']],
    success: `${tagType.name} saved`,
    toastErrors: false,
    onSuccess: onClose,
  });
  const server = fieldError(save.error, ['name', 'description', 'icon']);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={`Tag type ${tagType.name}`}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
        noValidate
      >
        <Field label="Description" htmlFor="tt-edit-desc" error={server?.message}>
          <input id="tt-edit-desc" value={description} onChange={(e) => setDescription(e.target.value)} />
        </Field>
        {server ? null : <ErrorNotice error={save.error} />}
        <div className="form-actions">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            Save tag type
          </button>
        </div>
      </form>
    </Dialog>
  );
}
