import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { FeatureView } from '../../api/types';
import { ActionButton } from '../../components/ui/action-button';
import { Badge, Card, ErrorNotice, Field } from '../../components/ui/page';
import { FEATURE_TYPES, tagSchema } from '../../lib/domain';
import { useFormErrors } from '../../lib/form-errors';
import { useApiMutation } from '../../lib/use-api-mutation';
import { useCan, useWhyNot } from '../auth/permissions';
import { featureKey, useProjectFeatureNames } from './api';

/** Description, tags and parent dependencies of a feature. */
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
  const [tag, setTag] = useState('');
  const updateReason = whyNot('UPDATE_FEATURE', { project: feature.project });
  const unchanged =
    description === (feature.description ?? '') &&
    type === feature.type &&
    impressionData === feature.impressionData;
  const [parent, setParent] = useState('');
  const candidates = (useProjectFeatureNames(feature.project).data ?? []).filter((n) => n !== feature.name);
  const update = useApiMutation({
    mutationFn: () =>
      unwrap(
        api.PUT('/api/admin/projects/{projectId}/features/{featureName}', {
          params: { path },
          body: { description: description || null, type, impressionData },
        }),
      ),
    invalidates: [key],
    success: 'Feature saved',
  });
  const addTag = useApiMutation({
    mutationFn: ({ type, value }: { type: string; value: string }) =>
      unwrap(
        api.POST('/api/admin/features/{featureName}/tags', {
          params: { path: { featureName: feature.name } },
          body: { type, value },
        }),
      ),
    invalidates: [key],
    success: 'Tag added',
    toastErrors: false,
    onSuccess: () => setTag(''),
  });
  // The tag box holds both parts, so whatever the server says about the tag belongs under it.
  const tagErrors = useFormErrors(addTag.error, ['tag'], { fallbackField: 'tag' });
  const removeTag = useApiMutation({
    mutationFn: ({ type, value }: { type: string; value: string }) =>
      unwrap(
        api.DELETE('/api/admin/features/{featureName}/tags/{type}/{value}', {
          params: { path: { featureName: feature.name, type, value } },
        }),
      ),
    invalidates: [key],
    success: 'Tag removed',
  });
  const addParent = useApiMutation({
    mutationFn: (name: string) =>
      unwrap(
        api.POST('/api/admin/projects/{projectId}/features/{child}/dependencies', {
          params: { path: { projectId: feature.project, child: feature.name } },
          body: { feature: name, enabled: true },
        }),
      ),
    invalidates: [key],
    success: 'Dependency added',
  });
  const removeParent = useApiMutation({
    mutationFn: (name: string) =>
      unwrap(
        api.DELETE('/api/admin/projects/{projectId}/features/{child}/dependencies/{parent}', {
          params: { path: { projectId: feature.project, child: feature.name, parent: name } },
        }),
      ),
    invalidates: [key],
    success: 'Dependency removed',
  });
  const submitTag = (e: FormEvent) => {
    e.preventDefault();
    const [type, ...rest] = tag.includes(':') ? tag.split(':') : ['simple', tag];
    const value = rest.join(':').trim();
    const parsed = tagSchema.safeParse({ type, value });
    const problem = parsed.success ? null : parsed.error.issues[0];
    if (
      tagErrors.report(
        problem
          ? [{ path: 'tag', message: `The tag ${String(problem.path[0] ?? '')} ${problem.message}` }]
          : [],
      )
    )
      addTag.mutate({ type: type ?? 'simple', value });
  };
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
      <Card title="Tags">
        <div className="chips" style={{ marginBottom: 10 }}>
          {feature.tags.length === 0 ? <span className="muted">No tags.</span> : null}
          {feature.tags.map((t) => (
            <span key={`${t.type}:${t.value}`} className="badge tag">
              {t.type}:{t.value}
              <ActionButton
                type="button"
                className="icon-btn"
                style={{ fontSize: 14, padding: '0 2px' }}
                aria-label={`Remove tag ${t.type}:${t.value}`}
                disabledReason={updateReason}
                onClick={() => removeTag.mutate(t)}
              >
                ×
              </ActionButton>
            </span>
          ))}
        </div>
        <form className={tagErrors.of('tag') ? 'field field-invalid' : 'field'} onSubmit={submitTag}>
          <div className="row">
            <input
              aria-label="New tag (type:value)"
              placeholder="simple:checkout"
              value={tag}
              disabled={!mayUpdate}
              title={updateReason ?? undefined}
              onChange={(e) => setTag(e.target.value)}
              style={{ flex: 1 }}
            />
            <ActionButton type="submit" className="btn btn-small" disabledReason={updateReason}>
              Add tag
            </ActionButton>
          </div>
          {tagErrors.of('tag') ? (
            <div className="field-error" role="alert">
              {tagErrors.of('tag')}
            </div>
          ) : null}
          <ErrorNotice error={tagErrors.rest} />
        </form>
      </Card>
      <Card title="Dependencies">
        {feature.dependencies.length === 0 ? <p className="muted">No parent features.</p> : null}
        {feature.dependencies.map((d) => (
          <div key={d.feature} className="row-between">
            <span>
              Requires <strong>{d.feature}</strong> {d.enabled ? 'enabled' : 'disabled'}
              {d.variants.length ? ` with variant ${d.variants.join(', ')}` : ''}
            </span>
            <ActionButton
              type="button"
              className="btn btn-small btn-ghost"
              disabledReason={whyNot('UPDATE_FEATURE_DEPENDENCY', { project: feature.project })}
              onClick={() => removeParent.mutate(d.feature)}
            >
              Remove
            </ActionButton>
          </div>
        ))}
        <div className="row" style={{ marginTop: 8 }}>
          <select
            aria-label="Parent feature"
            value={parent}
            onChange={(e) => setParent(e.target.value)}
            style={{ flex: 1 }}
          >
            <option value="">Choose a parent feature…</option>
            {candidates.map((n) => (
              <option key={n}>{n}</option>
            ))}
          </select>
          <ActionButton
            type="button"
            className="btn btn-small"
            disabledReason={
              whyNot('UPDATE_FEATURE_DEPENDENCY', { project: feature.project }) ??
              (parent ? null : 'Choose a parent feature first.')
            }
            onClick={() => addParent.mutate(parent)}
          >
            Add dependency
          </ActionButton>
        </div>
        {feature.children.length ? <p className="muted">Children: {feature.children.join(', ')}</p> : null}
      </Card>
      <Card title="Lifecycle">
        <Badge tone="info">{feature.lifecycle.stage}</Badge>
        <p className="muted">Since {new Date(feature.lifecycle.enteredStageAt).toLocaleDateString()}</p>
      </Card>
    </div>
  );
}
