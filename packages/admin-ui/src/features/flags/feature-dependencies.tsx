import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client';
import type { Dependency, FeatureView } from '../../api/types';
import { ActionButton } from '../../components/ui/action-button';
import { Card, ErrorNotice, Field } from '../../components/ui/page';
import { answerOf } from '../../lib/api-answer';
import { dependencyInputSchema } from '../../lib/domain';
import { useFormErrors } from '../../lib/form-errors';
import { useApiMutation } from '../../lib/use-api-mutation';
import { useWhyNot } from '../auth/permissions';
import { pendingKey } from '../change-requests/draft-bar';
import { DraftNote, draftChange, draftedMessage, useDraftEnvironment } from '../change-requests/draft-change';
import { featureKey, featureQueryOptions } from './api/feature';
import { ParentPicker } from './parent-picker';

type Condition = 'enabled' | 'disabled' | 'variants';

const describe = (d: Dependency) =>
  !d.enabled ? 'disabled' : d.variants.length ? `enabled with variant ${d.variants.join(' or ')}` : 'enabled';

/** The variant names a parent has in any environment, for the "parent variants" condition. */
function useParentVariants(project: string, parent: string) {
  return useQuery({
    ...featureQueryOptions(project, parent),
    enabled: parent !== '',
    select: (f) => [...new Set(f.environments.flatMap((e) => e.variants.map((v) => v.name)))].sort(),
  });
}

/** A feature's parents with the reference's conditions: parent enabled, disabled, or on a variant. */
export function FeatureDependencies({ feature }: { feature: FeatureView }) {
  const whyNot = useWhyNot();
  const refused = whyNot('UPDATE_FEATURE_DEPENDENCY', { project: feature.project });
  const mayEdit = !refused;
  const key = featureKey(feature.project, feature.name);
  const path = { projectId: feature.project, child: feature.name };
  const [parent, setParent] = useState('');
  const [condition, setCondition] = useState<Condition>('enabled');
  const [variants, setVariants] = useState<string[]>([]);
  const [pickerKey, setPickerKey] = useState(0);
  const parentVariants = useParentVariants(feature.project, condition === 'variants' ? parent : '');
  // Dependencies are feature-wide: when any environment requires change requests, they are drafted.
  const draftIn = useDraftEnvironment(
    feature.project,
    [...feature.environments].sort((a, b) => a.sortOrder - b.sortOrder).map((e) => e.name),
  );
  const pending = pendingKey(feature.project, feature.name);
  const add = useApiMutation({
    mutationFn: (body: Dependency) =>
      draftIn
        ? draftChange(feature.project, draftIn, feature.name, 'addDependency', body)
        : answerOf(
            api.POST('/api/admin/projects/{projectId}/features/{child}/dependencies', {
              params: { path },
              body,
            }),
          ),
    invalidates: [key, pending],
    success: draftIn ? draftedMessage(draftIn) : 'Dependency saved',
    toastErrors: false,
    onSuccess: () => {
      setParent('');
      setCondition('enabled');
      setVariants([]);
      setPickerKey((k) => k + 1);
    },
  });
  const remove = useApiMutation({
    mutationFn: (name: string) =>
      draftIn
        ? draftChange(feature.project, draftIn, feature.name, 'deleteDependency', { feature: name })
        : answerOf(
            api.DELETE('/api/admin/projects/{projectId}/features/{child}/dependencies/{parent}', {
              params: { path: { ...path, parent: name } },
            }),
          ),
    invalidates: [key, pending],
    success: draftIn ? draftedMessage(draftIn) : 'Dependency removed',
  });
  // A refusal naming no property (unknown parent, a cycle, another project) is about the parent.
  const errors = useFormErrors(add.error, ['feature', 'variants'], { fallbackField: 'feature' });
  const body = (): Dependency => ({
    feature: parent,
    enabled: condition !== 'disabled',
    variants: condition === 'variants' ? variants : [],
  });
  const save = () => {
    const extra =
      condition === 'variants' && variants.length === 0
        ? [{ path: 'variants', message: 'Pick at least one variant.' }]
        : [];
    if (errors.check(dependencyInputSchema, body(), extra)) add.mutate(body());
  };
  return (
    <Card title="Dependencies">
      {draftIn ? <DraftNote environment={draftIn} what="adding or removing a parent" /> : null}
      {feature.dependencies.length === 0 ? <p className="muted">No parent features.</p> : null}
      {feature.dependencies.map((d) => (
        <div key={d.feature} className="row-between">
          <span>
            Requires <strong>{d.feature}</strong> {describe(d)}
          </span>
          <ActionButton
            type="button"
            className="btn btn-small btn-ghost"
            aria-label={`Remove dependency on ${d.feature}`}
            disabledReason={refused}
            onClick={() => remove.mutate(d.feature)}
          >
            Remove
          </ActionButton>
        </div>
      ))}
      <div className="stack" style={{ marginTop: 8 }}>
        <Field
          label="Parent feature"
          error={errors.of('feature')}
          hint="Search the project's features; adding a parent already listed changes its condition."
        >
          <ParentPicker
            key={pickerKey}
            project={feature.project}
            exclude={[feature.name]}
            value={parent}
            onChange={(name) => {
              setParent(name);
              errors.report([]);
            }}
            disabled={!mayEdit}
          />
        </Field>
        <Field label="Condition" htmlFor="dependency-condition">
          <select
            id="dependency-condition"
            value={condition}
            disabled={!mayEdit}
            title={refused ?? undefined}
            onChange={(e) =>
              setCondition(
                e.target.value === 'disabled'
                  ? 'disabled'
                  : e.target.value === 'variants'
                    ? 'variants'
                    : 'enabled',
              )
            }
          >
            <option value="enabled">parent is enabled</option>
            <option value="disabled">parent is disabled</option>
            <option value="variants">parent is enabled with one of these variants</option>
          </select>
        </Field>
        {condition === 'variants' ? (
          <Field label="Parent variants" error={errors.of('variants')}>
            {!parent ? <span className="muted">Pick the parent first.</span> : null}
            {parent && parentVariants.data?.length === 0 ? (
              <span className="muted">{parent} has no variants in any environment.</span>
            ) : null}
            <fieldset className="chips" aria-label="Parent variants">
              {(parentVariants.data ?? []).map((name) => (
                <button
                  key={name}
                  type="button"
                  className="chip-toggle"
                  aria-pressed={variants.includes(name)}
                  onClick={() => {
                    setVariants(
                      variants.includes(name) ? variants.filter((v) => v !== name) : [...variants, name],
                    );
                    errors.report([]);
                  }}
                >
                  {name}
                </button>
              ))}
            </fieldset>
          </Field>
        ) : null}
        <ErrorNotice error={errors.rest} />
        <div className="form-actions">
          <ActionButton
            type="button"
            className="btn btn-small"
            disabled={add.isPending}
            disabledReason={refused ?? (parent ? null : 'Pick a parent feature first.')}
            onClick={save}
          >
            Add dependency
          </ActionButton>
        </div>
      </div>
      {feature.children.length ? <p className="muted">Children: {feature.children.join(', ')}</p> : null}
    </Card>
  );
}
