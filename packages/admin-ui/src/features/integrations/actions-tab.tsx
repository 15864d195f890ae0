import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ActionButton } from '../../components/ui/action-button';
import { Badge, Card, ErrorNotice, Field } from '../../components/ui/page';
import { useFormErrors } from '../../lib/form-errors';
import { useApiMutation } from '../../lib/use-api-mutation';
import { ADMIN_ONLY, useCan } from '../auth/permissions';
import { useProjects } from '../projects/api';
import {
  type ActionSetBody,
  actionSetKeys,
  createActionSet,
  deleteActionSet,
  listActionSetsQueryOptions,
} from './api/action-sets';
import { listSignalEndpointsQueryOptions } from './api/signal-endpoints';

const ACTIONS = [
  'TOGGLE_FEATURE_ON',
  'TOGGLE_FEATURE_OFF',
  'DISABLE_FEATURE_STRATEGY',
  'ENABLE_FEATURE_STRATEGY',
] as const;

/** Action sets: what happens in a project when a signal arrives. */
export function ActionsTab() {
  const admin = useCan()('ADMIN');
  const projects = useProjects();
  const endpoints = useQuery(listSignalEndpointsQueryOptions());
  const [projectId, setProjectId] = useState('default');
  const key = actionSetKeys.project(projectId);
  const list = useQuery(listActionSetsQueryOptions(projectId));
  const [form, setForm] = useState<{
    name: string;
    sourceId: string;
    action: (typeof ACTIONS)[number];
    featureName: string;
    environment: string;
  }>({ name: '', sourceId: '', action: 'TOGGLE_FEATURE_ON', featureName: '', environment: 'development' });
  const create = useApiMutation({
    mutationFn: (body: ActionSetBody) => createActionSet(projectId, body),
    invalidates: [key],
    success: 'Action set created',
    toastErrors: false,
  });
  const errors = useFormErrors(create.error, [
    'name',
    'match',
    'actions[0].action',
    'actions[0].executionParams.featureName',
    'actions[0].executionParams.environment',
  ]);
  const remove = useApiMutation({
    mutationFn: (id: number) => deleteActionSet(projectId, id),
    invalidates: [key],
    success: 'Action set deleted',
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problems = [
      ...(form.name ? [] : [{ path: 'name', message: 'Give the action set a name.' }]),
      ...(form.sourceId ? [] : [{ path: 'match', message: 'Pick a signal endpoint.' }]),
      ...(form.featureName
        ? []
        : [{ path: 'actions[0].executionParams.featureName', message: 'Name the feature to act on.' }]),
    ];
    if (errors.report(problems))
      create.mutate({
        name: form.name,
        match: { source: 'signal-endpoint', sourceId: Number(form.sourceId), payload: {} },
        actions: [
          {
            action: form.action,
            sortOrder: 0,
            executionParams: {
              project: projectId,
              featureName: form.featureName,
              environment: form.environment,
            },
          },
        ],
      });
  };
  return (
    <div className="grid grid-2">
      <Card
        title="Action sets"
        actions={
          <select
            aria-label="Project"
            value={projectId}
            onChange={(e) => setProjectId(e.target.value)}
            style={{ width: 'auto' }}
          >
            {projects.data?.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        }
      >
        <ErrorNotice error={list.error} />
        {list.data?.actions.length === 0 ? <p className="muted">No action sets in this project.</p> : null}
        {list.data?.actions.map((a) => (
          <div key={a.id} className="strategy">
            <div className="strategy-head">
              <strong>{a.name}</strong>
              {a.actions.map((x, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: rows are plain values without identity and are only appended or removed
                <Badge key={i} tone="info">
                  {x.action} {x.executionParams.featureName}
                </Badge>
              ))}
              <span className="spacer" />
              <ActionButton
                type="button"
                className="btn btn-small btn-ghost"
                disabledReason={admin ? null : ADMIN_ONLY}
                onClick={() => remove.mutate(a.id)}
              >
                Delete
              </ActionButton>
            </div>
          </div>
        ))}
      </Card>
      <Card title="New action set">
        <form onSubmit={submit} noValidate>
          <Field label="Name" htmlFor="action-name" error={errors.of('name')}>
            <input
              id="action-name"
              value={form.name}
              onChange={(e) => setForm({ ...form, name: e.target.value })}
            />
          </Field>
          <Field
            label="When this endpoint receives a signal"
            htmlFor="action-source"
            error={errors.of('match')}
          >
            <select
              id="action-source"
              value={form.sourceId}
              onChange={(e) => setForm({ ...form, sourceId: e.target.value })}
            >
              <option value="">Choose…</option>
              {endpoints.data?.signalEndpoints.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </Field>
          <div className="form-grid">
            <Field label="Do" htmlFor="action-do" error={errors.of('actions[0].action')}>
              <select
                id="action-do"
                value={form.action}
                onChange={(e) =>
                  setForm({
                    ...form,
                    action: ACTIONS.find((a) => a === e.target.value) ?? 'TOGGLE_FEATURE_ON',
                  })
                }
              >
                {ACTIONS.map((a) => (
                  <option key={a}>{a}</option>
                ))}
              </select>
            </Field>
            <Field
              label="Feature"
              htmlFor="action-feature"
              error={errors.of('actions[0].executionParams.featureName')}
            >
              <input
                id="action-feature"
                value={form.featureName}
                onChange={(e) => setForm({ ...form, featureName: e.target.value })}
              />
            </Field>
          </div>
          <Field
            label="Environment"
            htmlFor="action-env"
            error={errors.of('actions[0].executionParams.environment')}
          >
            <input
              id="action-env"
              value={form.environment}
              onChange={(e) => setForm({ ...form, environment: e.target.value })}
            />
          </Field>
          <ErrorNotice error={errors.rest} />
          <div className="form-actions">
            <ActionButton
              type="submit"
              className="btn btn-primary"
              disabledReason={admin ? null : ADMIN_ONLY}
            >
              Create action set
            </ActionButton>
          </div>
        </form>
      </Card>
    </div>
  );
}
