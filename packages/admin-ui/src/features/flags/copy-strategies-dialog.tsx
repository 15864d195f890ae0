import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client';
import { errorMessage } from '../../api/errors';
import type { FeatureStrategy, FeatureView } from '../../api/types';
import { ActionButton } from '../../components/ui/action-button';
import { Dialog } from '../../components/ui/dialog';
import { useToast } from '../../components/ui/toast';
import { answerOf } from '../../lib/api-answer';
import { useWhyNot } from '../auth/permissions';
import { pendingKey, useProtectedEnvironments } from '../change-requests/draft-bar';
import { draftChange } from '../change-requests/draft-change';
import { featureKey } from './api/feature';

/** What a copy carries: the strategy's configuration, not its identity or place in the source. */
const configOf = (s: FeatureStrategy) => ({
  name: s.name,
  title: s.title ?? null,
  disabled: s.disabled ?? false,
  parameters: s.parameters,
  constraints: s.constraints,
  segments: s.segments,
  variants: s.variants,
});

interface Props {
  feature: FeatureView;
  from: string;
  strategies: readonly FeatureStrategy[];
  onClose(): void;
}

/**
 * Copies strategies to other environments of the feature, as the reference's UI does: by adding each
 * one there (placed after what the environment has). Each environment is reported on its own.
 */
export function CopyStrategiesDialog({ feature, from, strategies, onClose }: Props) {
  const whyNot = useWhyNot();
  const toast = useToast();
  const queryClient = useQueryClient();
  const targets = [...feature.environments]
    .filter((e) => e.name !== from)
    .sort((a, b) => a.sortOrder - b.sortOrder);
  const [chosen, setChosen] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [failures, setFailures] = useState<Record<string, string>>({});
  // A target that requires change requests gets the copies in the caller's draft for it.
  const guarded = useProtectedEnvironments(feature.project);
  const copy = async () => {
    setBusy(true);
    const failed: Record<string, string> = {};
    for (const environment of chosen) {
      try {
        for (const s of strategies)
          if (guarded.has(environment))
            await draftChange(feature.project, environment, feature.name, 'addStrategy', configOf(s));
          else
            await answerOf(
              api.POST(
                '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies',
                {
                  params: { path: { projectId: feature.project, featureName: feature.name, environment } },
                  body: configOf(s),
                },
              ),
            );
      } catch (error) {
        failed[environment] = errorMessage(error);
      }
    }
    await queryClient.invalidateQueries({ queryKey: featureKey(feature.project, feature.name) });
    await queryClient.invalidateQueries({ queryKey: pendingKey(feature.project, feature.name) });
    setBusy(false);
    setFailures(failed);
    const copied = chosen.filter((e) => !failed[e]);
    const direct = copied.filter((e) => !guarded.has(e));
    const drafted = copied.filter((e) => guarded.has(e));
    if (direct.length) toast.success(`Copied to ${direct.join(', ')}`);
    if (drafted.length) toast.success(`Added to your change request for ${drafted.join(', ')}`);
    if (!Object.keys(failed).length) onClose();
  };
  const what =
    strategies.length === 1 ? strategies[0]?.title || strategies[0]?.name : `${strategies.length} strategies`;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={`Copy ${what} from ${from}`}>
      {targets.length === 0 ? <p className="muted">The feature has no other environment.</p> : null}
      <fieldset className="stack" aria-label="Copy to environments" style={{ border: 0, padding: 0 }}>
        {targets.map((e) => {
          const refused = whyNot('CREATE_FEATURE_STRATEGY', {
            project: feature.project,
            environment: e.name,
          });
          return (
            <div key={e.name}>
              <label className="check">
                <input
                  type="checkbox"
                  checked={chosen.includes(e.name)}
                  disabled={Boolean(refused) || busy}
                  title={refused ?? undefined}
                  onChange={(ev) =>
                    setChosen(ev.target.checked ? [...chosen, e.name] : chosen.filter((x) => x !== e.name))
                  }
                />
                {e.name}{' '}
                <span className="muted">
                  ({e.type}, {e.strategies.length} strateg{e.strategies.length === 1 ? 'y' : 'ies'})
                </span>
              </label>
              {!refused && guarded.has(e.name) ? (
                <div className="hint">
                  {e.name} requires change requests: the copy goes into your draft change request for it.
                </div>
              ) : null}
              {refused ? (
                <div className="hint">
                  You may not add strategies in {e.name}: {refused.charAt(0).toLowerCase() + refused.slice(1)}
                </div>
              ) : null}
              {failures[e.name] ? (
                <div className="field-error" role="alert">
                  {failures[e.name]}
                </div>
              ) : null}
            </div>
          );
        })}
      </fieldset>
      <p className="hint">Copies are added after the strategies the environment already has.</p>
      <div className="form-actions">
        <button type="button" className="btn" onClick={onClose}>
          Cancel
        </button>
        <ActionButton
          type="button"
          className="btn btn-primary"
          disabled={busy}
          disabledReason={chosen.length === 0 ? 'Pick an environment to copy to.' : null}
          onClick={copy}
        >
          {busy ? 'Copying…' : 'Copy'}
        </ActionButton>
      </div>
    </Dialog>
  );
}
