import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { api } from '../../api/client';
import type { FeatureView, Tag } from '../../api/types';
import { ActionButton } from '../../components/ui/action-button';
import { Card, ErrorNotice } from '../../components/ui/page';
import { answerOf } from '../../lib/api-answer';
import { tagSchema } from '../../lib/domain';
import { useFormErrors } from '../../lib/form-errors';
import { useApiMutation } from '../../lib/use-api-mutation';
import { useWhyNot } from '../auth/permissions';
import { useTagTypes } from '../projects/api';
import { featureKey } from './api/feature';
import { tagValuesQueryOptions } from './api/tags';

/** A feature's tags: a type picked from the tag types, a value with the type's existing values offered. */
export function FeatureTags({ feature }: { feature: FeatureView }) {
  const whyNot = useWhyNot();
  const id = useId();
  const refused = whyNot('UPDATE_FEATURE', { project: feature.project });
  const mayUpdate = !refused;
  const types = useTagTypes().data ?? [];
  const [type, setType] = useState('');
  const chosenType = type || types[0]?.name || '';
  const [value, setValue] = useState('');
  const suggestions = useQuery(tagValuesQueryOptions(chosenType)).data ?? [];
  const taken = new Set(feature.tags.filter((t) => t.type === chosenType).map((t) => t.value));
  const key = featureKey(feature.project, feature.name);
  const add = useApiMutation({
    mutationFn: (tag: Tag) =>
      answerOf(
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
      answerOf(
        api.DELETE('/api/admin/features/{featureName}/tags/{type}/{value}', {
          params: { path: { featureName: feature.name, type, value } },
        }),
      ),
    invalidates: [key],
    success: 'Tag removed',
  });
  // The row holds both parts; a refusal naming neither (an unknown type) is shown under it too.
  const errors = useFormErrors(add.error, ['type', 'value'], { fallbackField: 'value' });
  const error = errors.of('type') ?? errors.of('value');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const tag = { type: chosenType, value: value.trim() };
    const ok = tag.value
      ? errors.check(tagSchema, tag)
      : errors.report([{ path: 'value', message: 'Enter a value for the tag.' }]);
    if (ok) add.mutate(tag);
  };
  return (
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
              disabledReason={refused}
              onClick={() => remove.mutate(t)}
            >
              ×
            </ActionButton>
          </span>
        ))}
      </div>
      <form className={error ? 'field field-invalid' : 'field'} onSubmit={submit} noValidate>
        <div className="row">
          <select
            aria-label="Tag type"
            value={chosenType}
            disabled={!mayUpdate}
            title={refused ?? undefined}
            onChange={(e) => {
              setType(e.target.value);
              errors.report([]);
            }}
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
            title={refused ?? undefined}
            onChange={(e) => {
              setValue(e.target.value);
              errors.report([]);
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
          <ActionButton
            type="submit"
            className="btn btn-small"
            disabled={add.isPending}
            disabledReason={refused ?? (chosenType ? null : 'There are no tag types yet.')}
          >
            Add tag
          </ActionButton>
        </div>
        {error ? (
          <div className="field-error" role="alert">
            {error}
          </div>
        ) : null}
        <ErrorNotice error={errors.rest} />
      </form>
    </Card>
  );
}
