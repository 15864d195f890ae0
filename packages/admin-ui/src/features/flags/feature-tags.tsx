import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { api } from '../../api/client';
import { fieldError, unwrap } from '../../api/errors';
import type { FeatureView, Tag } from '../../api/types';
import { Card } from '../../components/ui/page';
import { useApiMutation } from '../../lib/use-api-mutation';
import { useCan } from '../auth/permissions';
import { useTagTypes } from '../projects/api';
import { featureKey } from './api';

/** The values already used with a tag type, offered while typing a new tag. */
const useTagValues = (type: string) =>
  useQuery({
    queryKey: ['tags', type],
    enabled: type !== '',
    queryFn: () => unwrap<{ tags: Tag[] }>(api.GET('/api/admin/tags/{type}', { params: { path: { type } } })),
    select: (d) => [...new Set(d.tags.map((t) => t.value))].sort(),
  });

/** A feature's tags: a type picked from the tag types, a value with the type's existing values offered. */
export function FeatureTags({ feature }: { feature: FeatureView }) {
  const can = useCan();
  const id = useId();
  const mayUpdate = can('UPDATE_FEATURE', { project: feature.project });
  const types = useTagTypes().data ?? [];
  const [type, setType] = useState('');
  const chosenType = type || types[0]?.name || '';
  const [value, setValue] = useState('');
  const [empty, setEmpty] = useState(false);
  const suggestions = useTagValues(chosenType).data ?? [];
  const taken = new Set(feature.tags.filter((t) => t.type === chosenType).map((t) => t.value));
  const key = featureKey(feature.project, feature.name);
  const add = useApiMutation({
    mutationFn: (tag: Tag) =>
      unwrap(
        api.POST('/api/admin/features/{featureName}/tags', {
          params: { path: { featureName: feature.name } },
          body: tag,
        }),
      ),
    invalidates: [key, ['tags', chosenType]],
    success: 'Tag added',
    toastErrors: false,
    onSuccess: () => setValue(''),
  });
  const remove = useApiMutation({
    mutationFn: ({ type, value }: Tag) =>
      unwrap(
        api.DELETE('/api/admin/features/{featureName}/tags/{type}/{value}', {
          params: { path: { featureName: feature.name, type, value } },
        }),
      ),
    invalidates: [key],
    success: 'Tag removed',
  });
  const server = fieldError(add.error, ['type', 'value']);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setEmpty(!value.trim());
    if (value.trim()) add.mutate({ type: chosenType, value: value.trim() });
  };
  return (
    <Card title="Tags">
      <div className="chips" style={{ marginBottom: 10 }}>
        {feature.tags.length === 0 ? <span className="muted">No tags.</span> : null}
        {feature.tags.map((t) => (
          <span key={`${t.type}:${t.value}`} className="badge tag">
            {t.type}:{t.value}
            <button
              type="button"
              className="icon-btn"
              style={{ fontSize: 14, padding: '0 2px' }}
              aria-label={`Remove tag ${t.type}:${t.value}`}
              disabled={!mayUpdate}
              onClick={() => remove.mutate(t)}
            >
              ×
            </button>
          </span>
        ))}
      </div>
      <form className="stack" onSubmit={submit} noValidate>
        <div className="row">
          <select
            aria-label="Tag type"
            value={chosenType}
            disabled={!mayUpdate}
            onChange={(e) => setType(e.target.value)}
            style={{ width: 'auto' }}
          >
            {types.map((t) => (
              <option key={t.name} value={t.name} title={t.description ?? undefined}>
                {t.name}
              </option>
            ))}
          </select>
          <input
            aria-label="Tag value"
            list={`${id}-values`}
            placeholder={suggestions.length ? 'Pick or type a value' : 'Value'}
            value={value}
            disabled={!mayUpdate}
            onChange={(e) => {
              setValue(e.target.value);
              setEmpty(false);
            }}
            style={{ flex: 1 }}
          />
          <datalist id={`${id}-values`}>
            {suggestions
              .filter((s) => !taken.has(s))
              .map((s) => (
                <option key={s} value={s} />
              ))}
          </datalist>
          <button
            type="submit"
            className="btn btn-small"
            disabled={!mayUpdate || !chosenType || add.isPending}
          >
            Add tag
          </button>
        </div>
        {empty || add.error ? (
          <div className="field-error" role="alert">
            {empty ? 'Enter a value for the tag.' : (server?.message ?? add.error?.message)}
          </div>
        ) : null}
      </form>
    </Card>
  );
}
