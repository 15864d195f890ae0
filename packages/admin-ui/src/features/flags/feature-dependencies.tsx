import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client';
import { fieldError, unwrap } from '../../api/errors';
import type { Dependency, FeatureView } from '../../api/types';
import { Card, Field } from '../../components/ui/page';
import { useApiMutation } from '../../lib/use-api-mutation';
import { useCan } from '../auth/permissions';
import { featureKey } from './api';
import { ParentPicker } from './parent-picker';

type Condition = 'enabled' | 'disabled' | 'variants';

const describe = (d: Dependency) =>
  !d.enabled ? 'disabled' : d.variants.length ? `enabled with variant ${d.variants.join(' or ')}` : 'enabled';

/** The variant names a parent has in any environment, for the "parent variants" condition. */
function useParentVariants(project: string, parent: string) {
  return useQuery({
    queryKey: featureKey(project, parent),
    enabled: parent !== '',
    queryFn: () =>
      unwrap<FeatureView>(
        api.GET('/api/admin/projects/{projectId}/features/{featureName}', {
          params: { path: { projectId: project, featureName: parent } },
        }),
      ),
    select: (f) => [...new Set(f.environments.flatMap((e) => e.variants.map((v) => v.name)))].sort(),
  });
}

/** A feature's parents with the reference's conditions: parent enabled, disabled, or on a variant. */
export function FeatureDependencies({ feature }: { feature: FeatureView }) {
  const can = useCan();
  const mayEdit = can('UPDATE_FEATURE_DEPENDENCY', { project: feature.project });
  const key = featureKey(feature.project, feature.name);
  const path = { projectId: feature.project, child: feature.name };
  const [parent, setParent] = useState('');
  const [condition, setCondition] = useState<Condition>('enabled');
  const [variants, setVariants] = useState<string[]>([]);
  const [pickerKey, setPickerKey] = useState(0);
  const parentVariants = useParentVariants(feature.project, condition === 'variants' ? parent : '');
  const add = useApiMutation({
    mutationFn: (body: Dependency) =>
      unwrap(
        api.POST('/api/admin/projects/{projectId}/features/{child}/dependencies', {
          params: { path },
          body,
        }),
      ),
    invalidates: [key],
    success: 'Dependency saved',
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
      unwrap(
        api.DELETE('/api/admin/projects/{projectId}/features/{child}/dependencies/{parent}', {
          params: { path: { ...path, parent: name } },
        }),
      ),
    invalidates: [key],
    success: 'Dependency removed',
  });
  const serverProblem = fieldError(add.error, ['feature', 'enabled', 'variants']);
  const localProblem =
    condition === 'variants' && parent && variants.length === 0 ? 'Pick at least one variant.' : null;
  const save = () =>
    add.mutate({
      feature: parent,
      enabled: condition !== 'disabled',
      variants: condition === 'variants' ? variants : [],
    });
  return (
    <Card title="Dependencies">
      {feature.dependencies.length === 0 ? <p className="muted">No parent features.</p> : null}
      {feature.dependencies.map((d) => (
        <div key={d.feature} className="row-between">
          <span>
            Requires <strong>{d.feature}</strong> {describe(d)}
          </span>
          <button
            type="button"
            className="btn btn-small btn-ghost"
            aria-label={`Remove dependency on ${d.feature}`}
            disabled={!mayEdit}
            onClick={() => remove.mutate(d.feature)}
          >
            Remove
          </button>
        </div>
      ))}
      <div className="stack" style={{ marginTop: 8 }}>
        <Field
          label="Parent feature"
          error={serverProblem?.field === 'feature' ? serverProblem.message : null}
          hint="Search the project's features; adding a parent already listed changes its condition."
        >
          <ParentPicker
            key={pickerKey}
            project={feature.project}
            exclude={[feature.name]}
            value={parent}
            onChange={setParent}
            disabled={!mayEdit}
          />
        </Field>
        <Field label="Condition" htmlFor="dependency-condition">
          <select
            id="dependency-condition"
            value={condition}
            disabled={!mayEdit}
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
          <Field
            label="Parent variants"
            error={localProblem ?? (serverProblem?.field === 'variants' ? serverProblem.message : null)}
          >
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
                  onClick={() =>
                    setVariants(
                      variants.includes(name) ? variants.filter((v) => v !== name) : [...variants, name],
                    )
                  }
                >
                  {name}
                </button>
              ))}
            </fieldset>
          </Field>
        ) : null}
        {add.error && !serverProblem ? (
          <div className="notice notice-error" role="alert">
            {add.error.message}
          </div>
        ) : null}
        <div className="form-actions">
          <button
            type="button"
            className="btn btn-small"
            disabled={!parent || !mayEdit || localProblem !== null || add.isPending}
            onClick={save}
          >
            Add dependency
          </button>
        </div>
      </div>
      {feature.children.length ? <p className="muted">Children: {feature.children.join(', ')}</p> : null}
    </Card>
  );
}
