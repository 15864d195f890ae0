import type { ConstraintInput, StrategyConfigInput } from '@flagstaff/core';
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import type { FeatureStrategy } from '../../api/types';
import { ConstraintEditor, constraintProblem } from '../../components/constraint-editor';
import { Dialog } from '../../components/ui/dialog';
import { ErrorNotice, Field } from '../../components/ui/page';
import { answerOf } from '../../lib/api-answer';
import { strategyConfigSchema } from '../../lib/domain';
import { useFormErrors } from '../../lib/form-errors';
import { useApiMutation } from '../../lib/use-api-mutation';
import { pendingKey } from '../change-requests/draft-bar';
import { DraftNote, draftChange, draftedMessage, useDraftEnvironment } from '../change-requests/draft-change';
import { useContextFields } from './api/context-fields';
import { useSegments } from './api/segments';
import {
  BUILT_IN_STRATEGIES,
  defaultParameters,
  parametersProblem,
  StrategyParameters,
} from './strategy-parameters';
import { balance, type VariantDraft, VariantRows, variantFields, variantProblems } from './variant-rows';

interface Props {
  projectId: string;
  featureName: string;
  environment: string;
  /** The strategy to edit; absent to add one. */
  strategy?: FeatureStrategy;
  open: boolean;
  onOpenChange(open: boolean): void;
  onSaved(): void;
}

/** Adds or edits a strategy: type and parameters, constraints, segments and strategy variants. */
export function StrategyDialog({
  projectId,
  featureName,
  environment,
  strategy,
  open,
  onOpenChange,
  onSaved,
}: Props) {
  const contextFields = useContextFields().data ?? [];
  const segments = useSegments().data ?? [];
  const [name, setName] = useState(strategy?.name ?? 'flexibleRollout');
  const [title, setTitle] = useState(strategy?.title ?? '');
  const [disabled, setDisabled] = useState(strategy?.disabled ?? false);
  const [parameters, setParameters] = useState<Record<string, string>>(
    strategy?.parameters ?? defaultParameters('flexibleRollout', featureName),
  );
  const [constraints, setConstraints] = useState<ConstraintInput[]>(strategy?.constraints ?? []);
  const [segmentIds, setSegmentIds] = useState<number[]>(strategy?.segments ?? []);
  const [variants, setVariants] = useState<VariantDraft[]>(strategy?.variants ?? []);
  const path = { projectId, featureName, environment };
  // Where the environment requires change requests, the strategy goes into the caller's draft.
  const guarded = useDraftEnvironment(projectId, [environment]) !== null;
  const save = useApiMutation({
    // Answers a drafted change request or the saved strategy: nothing here reads either.
    mutationFn: (body: StrategyConfigInput): Promise<unknown> =>
      guarded
        ? strategy
          ? draftChange(projectId, environment, featureName, 'updateStrategy', { ...body, id: strategy.id })
          : draftChange(projectId, environment, featureName, 'addStrategy', body)
        : strategy
          ? answerOf(
              api.PUT(
                '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}',
                {
                  params: { path: { ...path, strategyId: strategy.id } },
                  body,
                },
              ),
            )
          : answerOf(
              api.POST(
                '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies',
                { params: { path }, body },
              ),
            ),
    invalidates: [pendingKey(projectId, featureName)],
    success: guarded ? draftedMessage(environment) : strategy ? 'Strategy saved' : 'Strategy added',
    toastErrors: false,
    onSuccess: () => {
      onOpenChange(false);
      onSaved();
    },
  });
  const errors = useFormErrors(save.error, [
    'name',
    'title',
    'parameters',
    'segments',
    'constraints',
    ...variantFields(variants).map((f) => (f === 'variants' ? f : `variants${f}`)),
  ]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body: StrategyConfigInput = {
      name,
      title: title || null,
      disabled,
      parameters,
      constraints,
      segments: segmentIds,
      variants,
    };
    const parametersMessage = parametersProblem(name, parameters);
    const problems = [
      ...(parametersMessage ? [{ path: 'parameters', message: parametersMessage }] : []),
      ...constraints.flatMap((c, i) => {
        const message = constraintProblem(c);
        return message ? [{ path: `constraints[${i}]`, message }] : [];
      }),
      ...variantProblems(variants).map((p) => ({
        ...p,
        path: p.path === 'variants' ? 'variants' : `variants${p.path}`,
      })),
    ];
    if (errors.check(strategyConfigSchema, body, problems)) save.mutate(body);
  };
  const stickiness = [
    'default',
    'userId',
    'sessionId',
    'random',
    ...contextFields.filter((f) => f.stickiness).map((f) => f.name),
  ];
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={`${strategy ? 'Edit' : 'Add'} strategy in ${environment}`}
      wide
    >
      <form onSubmit={submit} noValidate>
        {guarded ? (
          <DraftNote environment={environment} what={strategy ? 'this edit' : 'the new strategy'} />
        ) : null}
        <div className="form-grid">
          <Field label="Strategy" htmlFor="strategy-name" error={errors.of('name')}>
            <select
              id="strategy-name"
              value={name}
              onChange={(e) => {
                setName(e.target.value);
                setParameters(defaultParameters(e.target.value, featureName));
              }}
            >
              {BUILT_IN_STRATEGIES.map((s) => (
                <option key={s.name} value={s.name}>
                  {s.label}
                </option>
              ))}
              {BUILT_IN_STRATEGIES.some((s) => s.name === name) ? null : <option value={name}>{name}</option>}
            </select>
          </Field>
          <Field label="Title (optional)" htmlFor="strategy-title" error={errors.of('title')}>
            <input id="strategy-title" value={title} onChange={(e) => setTitle(e.target.value)} />
          </Field>
        </div>
        <p className="hint">{BUILT_IN_STRATEGIES.find((s) => s.name === name)?.description}</p>
        <StrategyParameters
          name={name}
          parameters={parameters}
          contextFields={contextFields}
          onChange={setParameters}
        />
        {errors.of('parameters') ? (
          <div className="field-error" role="alert">
            {errors.of('parameters')}
          </div>
        ) : null}
        <h3>Segments</h3>
        <fieldset className="chips" aria-label="Segments">
          {segments.length === 0 ? <span className="muted">No segments defined.</span> : null}
          {segments.map((s) => (
            <button
              key={s.id}
              type="button"
              className="chip-toggle"
              aria-pressed={segmentIds.includes(s.id)}
              onClick={() =>
                setSegmentIds(
                  segmentIds.includes(s.id) ? segmentIds.filter((x) => x !== s.id) : [...segmentIds, s.id],
                )
              }
            >
              {s.name}
            </button>
          ))}
        </fieldset>
        {errors.of('segments') ? (
          <div className="field-error" role="alert">
            {errors.of('segments')}
          </div>
        ) : null}
        <h3 style={{ marginTop: 16 }}>Constraints</h3>
        {constraints.map((c, i) => (
          <ConstraintEditor
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are plain values without identity and are only appended or removed
            key={i}
            index={i}
            constraint={c}
            contextFields={contextFields}
            onChange={(next) => setConstraints(constraints.map((x, j) => (j === i ? next : x)))}
            onRemove={() => setConstraints(constraints.filter((_, j) => j !== i))}
          />
        ))}
        <button
          type="button"
          className="btn btn-small"
          onClick={() => setConstraints([...constraints, { contextName: '', operator: 'IN', values: [] }])}
        >
          Add constraint
        </button>
        {errors.of('constraints') ? (
          <div className="field-error" role="alert">
            {errors.of('constraints')}
          </div>
        ) : null}
        <h3 style={{ marginTop: 16 }}>Strategy variants</h3>
        <VariantRows
          variants={variants}
          onChange={(v) => setVariants(balance(v))}
          stickinessOptions={[...new Set(stickiness)]}
          errorOf={(field) => errors.of(`variants${field}`)}
        />
        {errors.of('variants') ? (
          <div className="field-error" role="alert">
            {errors.of('variants')}
          </div>
        ) : null}
        <label className="check" style={{ marginTop: 12 }}>
          <input type="checkbox" checked={disabled} onChange={(e) => setDisabled(e.target.checked)} />
          Disabled (kept, but not evaluated)
        </label>
        <ErrorNotice error={errors.rest} />
        <div className="form-actions">
          <button type="button" className="btn" onClick={() => onOpenChange(false)}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            {guarded ? 'Add to change request' : 'Save strategy'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
