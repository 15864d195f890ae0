import { useState } from 'react';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { FeatureEnvironmentView, FeatureView } from '../../api/types';
import { Dialog } from '../../components/ui/dialog';
import { ErrorNotice } from '../../components/ui/page';
import { useFormErrors } from '../../lib/form-errors';
import { useApiMutation } from '../../lib/use-api-mutation';
import { featureKey, useContextFields } from './api';
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
  const save = useApiMutation({
    mutationFn: (body: VariantDraft[]) =>
      unwrap(
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
    invalidates: [featureKey(feature.project, feature.name)],
    success: 'Variants saved',
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
          Save variants
        </button>
      </div>
    </Dialog>
  );
}
