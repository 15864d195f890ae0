import { useState } from 'react';
import { api } from '../../api/client';
import type { FeatureView } from '../../api/types';
import { ActionButton } from '../../components/ui/action-button';
import { Badge, Card, Field } from '../../components/ui/page';
import { answerOf } from '../../lib/api-answer';
import { FEATURE_TYPES } from '../../lib/domain';
import { useApiMutation } from '../../lib/use-api-mutation';
import { useCan, useWhyNot } from '../auth/permissions';
import { featureKey } from './api/feature';
import { FeatureDependencies } from './feature-dependencies';
import { FeatureTags } from './feature-tags';

/** Description, type and impression data of a feature, with its tags, parent dependencies and lifecycle. */
export function FeatureMeta({ feature }: { feature: FeatureView }) {
  const can = useCan();
  const whyNot = useWhyNot();
  const key = featureKey(feature.project, feature.name);
  const path = { projectId: feature.project, featureName: feature.name };
  const mayUpdate = can('UPDATE_FEATURE', { project: feature.project });
  const [description, setDescription] = useState(feature.description ?? '');
  const [type, setType] = useState<(typeof FEATURE_TYPES)[number]>(
    FEATURE_TYPES.find((t) => t === feature.type) ?? 'release',
  );
  const [impressionData, setImpressionData] = useState(feature.impressionData);
  const updateReason = whyNot('UPDATE_FEATURE', { project: feature.project });
  const unchanged =
    description === (feature.description ?? '') &&
    type === feature.type &&
    impressionData === feature.impressionData;
  const update = useApiMutation({
    mutationFn: () =>
      answerOf(
        api.PUT('/api/admin/projects/{projectId}/features/{featureName}', {
          params: { path },
          body: { description: description || null, type, impressionData },
        }),
      ),
    invalidates: [key],
    success: 'Feature saved',
  });
  return (
    <div className="grid grid-2">
      <Card title="About">
        <Field label="Description" htmlFor="feature-desc">
          <textarea
            id="feature-desc"
            value={description}
            disabled={!mayUpdate}
            title={updateReason ?? undefined}
            onChange={(e) => setDescription(e.target.value)}
          />
        </Field>
        <Field label="Type" htmlFor="feature-type-edit">
          <select
            id="feature-type-edit"
            value={type}
            disabled={!mayUpdate}
            title={updateReason ?? undefined}
            onChange={(e) => setType(FEATURE_TYPES.find((t) => t === e.target.value) ?? 'release')}
          >
            {FEATURE_TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </Field>
        <div className="row-between">
          <label className="check">
            <input
              type="checkbox"
              checked={impressionData}
              disabled={!mayUpdate}
              title={updateReason ?? undefined}
              onChange={(e) => setImpressionData(e.target.checked)}
            />
            Impression data
          </label>
          <ActionButton
            type="button"
            className="btn btn-small"
            disabledReason={updateReason ?? (unchanged ? 'Nothing changed.' : null)}
            disabled={update.isPending}
            onClick={() => update.mutate()}
          >
            Save
          </ActionButton>
        </div>
      </Card>
      <FeatureTags feature={feature} />
      <FeatureDependencies feature={feature} />
      <Card title="Lifecycle">
        <Badge tone="info">{feature.lifecycle.stage}</Badge>
        <p className="muted">Since {new Date(feature.lifecycle.enteredStageAt).toLocaleDateString()}</p>
      </Card>
    </div>
  );
}
