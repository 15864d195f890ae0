import { useState } from 'react';
import { api } from '../../api/client';
import type { FeatureEnvironmentView, FeatureView } from '../../api/types';
import { Dialog } from '../../components/ui/dialog';
import { ErrorNotice } from '../../components/ui/page';
import { answerOf } from '../../lib/api-answer';
import { useFormErrors } from '../../lib/form-errors';
import { useApiMutation } from '../../lib/use-api-mutation';
import { pendingKey } from '../change-requests/draft-bar';
import { DraftNote, draftChange, draftedMessage, useDraftEnvironment } from '../change-requests/draft-change';
import { useContextFields } from './api/context-fields';
import { featureKey } from './api/feature';
import { type VariantDraft, VariantRows, variantFields, variantProblems } from './variant-rows';

/** Edits a feature environment's variants (weights, stickiness, payloads, overrides). */
export function VariantsDialog({
  feature,
  env,
  onClose,
}: {
  feature: FeatureView;
  env: FeatureEnvironmentView;
  onClose(): void;
}) {
  const contextFields = useContextFields().data ?? [];
  const [variants, setVariants] = useState<VariantDraft[]>(env.variants);
  // Where the environment requires change requests, the variant set goes into the caller's draft.
  const guarded = useDraftEnvironment(feature.project, [env.name]) !== null;
  const save = useApiMutation({
    // Answers a drafted change request or the saved variant set: nothing here reads either.
    mutationFn: (body: VariantDraft[]): Promise<unknown> =>
      guarded
        ? draftChange(feature.project, env.name, feature.name, 'patchVariant', { variants: body })
        : answerOf(
            api.PUT(
              '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/variants',
              {
                params: {
                  path: { projectId: feature.project, featureName: feature.name, environment: env.name },
                },
                body,
              },
            ),
          ),
    invalidates: [featureKey(feature.project, feature.name), pendingKey(feature.project, feature.name)],
    success: guarded ? draftedMessage(env.name) : 'Variants saved',
    toastErrors: false,
    onSuccess: onClose,
  });
  const errors = useFormErrors(save.error, variantFields(variants));
  // Whether a save was tried: from then on the problems follow the edits.
  const [shown, setShown] = useState(false);
  const stickiness = [
    ...new Set([
      'default',
      'userId',
      'sessionId',
      'random',
      ...contextFields.filter((f) => f.stickiness).map((f) => f.name),
    ]),
  ];
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={`Variants in ${env.name}`} wide>
      {guarded ? <DraftNote environment={env.name} what="the variant set" /> : null}
      <VariantRows
        variants={variants}
        onChange={(next) => {
          setVariants(next);
          // Once problems are shown, they follow the edits (and go when fixed).
          if (shown) errors.report(variantProblems(next));
        }}
        stickinessOptions={stickiness}
        contextFields={contextFields}
        withOverrides
        errorOf={errors.of}
      />
      {errors.of('variants') ? (
        <div className="notice notice-error" role="alert">
          {errors.of('variants')}
        </div>
      ) : null}
      <ErrorNotice error={errors.rest} />
      <div className="form-actions">
        <button type="button" className="btn" onClick={onClose}>
          Cancel
        </button>
        <button
          type="button"
          className="btn btn-primary"
          disabled={save.isPending}
          onClick={() => {
            setShown(true);
            if (errors.report(variantProblems(variants))) save.mutate(variants);
          }}
        >
          {guarded ? 'Add to change request' : 'Save variants'}
        </button>
      </div>
    </Dialog>
  );
}
