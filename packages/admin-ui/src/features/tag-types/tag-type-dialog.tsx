import { useState } from 'react';
import { api } from '../../api/client';
import type { TagType } from '../../api/types';
import { ActionButton } from '../../components/ui/action-button';
import { Dialog } from '../../components/ui/dialog';
import { ErrorNotice, Field } from '../../components/ui/page';
import { answerOf } from '../../lib/api-answer';
import { updateTagTypeSchema } from '../../lib/domain';
import { useFormErrors } from '../../lib/form-errors';
import { useApiMutation } from '../../lib/use-api-mutation';

/** Edits a tag type's description (its name is its identity, as in the reference). */
export function TagTypeDialog({ tagType, onClose }: { tagType: TagType; onClose(): void }) {
  const [description, setDescription] = useState(tagType.description ?? '');
  const body = () => ({ name: tagType.name, description: description.trim() || null });
  const save = useApiMutation({
    mutationFn: () =>
      answerOf(
        api.PUT('/api/admin/tag-types/{name}', { params: { path: { name: tagType.name } }, body: body() }),
      ),
    invalidates: [['tag-types']],
    success: `${tagType.name} saved`,
    toastErrors: false,
    onSuccess: onClose,
  });
  // Only the description can change here, so a refusal naming no property belongs under it.
  const errors = useFormErrors(save.error, ['description'], { fallbackField: 'description' });
  const unchanged = description.trim() === (tagType.description ?? '');
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={`Tag type ${tagType.name}`}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (errors.check(updateTagTypeSchema, body())) save.mutate();
        }}
        noValidate
      >
        <Field label="Description" htmlFor="tt-edit-desc" error={errors.of('description')}>
          <input id="tt-edit-desc" value={description} onChange={(e) => setDescription(e.target.value)} />
        </Field>
        <ErrorNotice error={errors.rest} />
        <div className="form-actions">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <ActionButton
            type="submit"
            className="btn btn-primary"
            disabled={save.isPending}
            disabledReason={unchanged ? 'Nothing changed.' : null}
          >
            Save tag type
          </ActionButton>
        </div>
      </form>
    </Dialog>
  );
}
