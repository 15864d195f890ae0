import type { StrategyConfigInput } from '@flagstaff/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../../api/client';
import type { ProjectEnvironmentView } from '../../api/types';
import { ConfirmDialog, Dialog } from '../../components/ui/dialog';
import { Badge, Card, ErrorNotice, Field, Loading } from '../../components/ui/page';
import { useApiMutation } from '../../lib/use-api-mutation';
import { answerOf, listEnvironmentsQueryOptions, projectKeys, stickinessOptionsQueryOptions } from './api';

type Strategy = NonNullable<ProjectEnvironmentView['defaultStrategy']>;

/** How a default strategy reads in the table, e.g. "Gradual rollout 50% (userId)". */
function describeStrategy(strategy: Strategy | undefined, projectStickiness: string): string {
  if (!strategy) return `Gradual rollout 100% (${projectStickiness}), the built-in default`;
  if (strategy.name !== 'flexibleRollout') return strategy.title || strategy.name;
  const p = strategy.parameters ?? {};
  return `${strategy.title ? `${strategy.title}: ` : ''}Gradual rollout ${p.rollout ?? '100'}% (${p.stickiness ?? 'default'})`;
}

/**
 * The environments the project uses, each with the strategy a flag gets when it is switched on there
 * with none. Disabling an environment leaves flags' configuration there untouched.
 */
export function EnvironmentsSettingsCard({
  projectId,
  linked,
  canEdit,
  defaultStickiness,
}: {
  projectId: string;
  linked: ProjectEnvironmentView[];
  canEdit: boolean;
  /** What the built-in default strategy sticks on: the project's default stickiness. */
  defaultStickiness: string;
}) {
  const all = useQuery(listEnvironmentsQueryOptions());
  const [editing, setEditing] = useState<ProjectEnvironmentView | null>(null);
  const [disabling, setDisabling] = useState<string | null>(null);
  const byName = new Map(linked.map((e) => [e.name, e]));
  const invalidates = [projectKeys.environments(projectId), projectKeys.all];
  const enable = useApiMutation({
    mutationFn: (environment: string) =>
      answerOf(
        api.POST('/api/admin/projects/{projectId}/environments', {
          params: { path: { projectId } },
          body: { environment },
        }),
      ),
    invalidates,
    success: (_r, env) => `${env} enabled in this project`,
  });
  const disable = useApiMutation({
    mutationFn: (environment: string) =>
      answerOf(
        api.DELETE('/api/admin/projects/{projectId}/environments/{environment}', {
          params: { path: { projectId, environment } },
        }),
      ),
    invalidates,
    success: (_r, env) => `${env} disabled in this project`,
  });
  return (
    <Card title="Environments">
      <p className="muted">
        Flags of this project can be configured in the environments enabled here. The default strategy is what
        a flag gets when it is switched on in an environment without any strategy.
      </p>
      {all.isPending ? <Loading /> : null}
      <ErrorNotice error={all.error} />
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th>Environment</th>
              <th>In this project</th>
              <th>Default strategy</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {(all.data ?? []).map((env) => {
              const link = byName.get(env.name);
              const last = Boolean(link) && linked.length <= 1;
              return (
                <tr key={env.name} data-testid={`project-env-${env.name}`}>
                  <td>
                    <strong>{env.name}</strong> <Badge>{env.type}</Badge>
                    {env.enabled ? null : <Badge tone="warn">disabled everywhere</Badge>}
                  </td>
                  <td>
                    <label
                      className="check"
                      title={last ? 'A project keeps at least one environment.' : undefined}
                    >
                      <input
                        type="checkbox"
                        aria-label={`Use ${env.name} in this project`}
                        checked={Boolean(link)}
                        disabled={!canEdit || last || enable.isPending || disable.isPending}
                        onChange={(e) =>
                          e.target.checked ? enable.mutate(env.name) : setDisabling(env.name)
                        }
                      />
                      {link ? 'Enabled' : 'Not used'}
                    </label>
                  </td>
                  <td className="muted">
                    {link ? describeStrategy(link.defaultStrategy, defaultStickiness) : '—'}
                  </td>
                  <td>
                    {link ? (
                      <button
                        type="button"
                        className="btn btn-small"
                        disabled={!canEdit}
                        aria-label={`Edit default strategy of ${env.name}`}
                        onClick={() => setEditing(link)}
                      >
                        Edit default strategy
                      </button>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {editing ? (
        <DefaultStrategyDialog projectId={projectId} environment={editing} onClose={() => setEditing(null)} />
      ) : null}
      <ConfirmDialog
        open={disabling !== null}
        onOpenChange={(o) => (o ? null : setDisabling(null))}
        title={`Stop using ${disabling ?? ''} in this project?`}
        message="Flags of this project are no longer served or configurable there. Their configuration is kept and comes back if you enable it again."
        confirmLabel="Disable environment"
        danger
        onConfirm={() => disabling && disable.mutate(disabling)}
      />
    </Card>
  );
}

function DefaultStrategyDialog({
  projectId,
  environment,
  onClose,
}: {
  projectId: string;
  environment: ProjectEnvironmentView;
  onClose(): void;
}) {
  const stickiness = useQuery(stickinessOptionsQueryOptions());
  const current = environment.defaultStrategy?.parameters ?? {};
  const [form, setForm] = useState({
    title: environment.defaultStrategy?.title ?? '',
    rollout: String(current.rollout ?? '100'),
    stickiness: String(current.stickiness ?? 'default'),
    groupId: String(current.groupId ?? ''),
  });
  const [problem, setProblem] = useState<string | null>(null);
  const kept =
    (environment.defaultStrategy?.constraints?.length ?? 0) +
    (environment.defaultStrategy?.segments?.length ?? 0);
  const save = useApiMutation({
    mutationFn: (body: StrategyConfigInput) =>
      answerOf(
        api.POST('/api/admin/projects/{projectId}/environments/{environment}/default-strategy', {
          params: { path: { projectId, environment: environment.name } },
          body,
        }),
      ),
    invalidates: [projectKeys.environments(projectId)],
    success: `Default strategy of ${environment.name} saved`,
    toastErrors: false,
    onSuccess: onClose,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const rollout = Number(form.rollout);
    if (form.rollout.trim() === '' || !Number.isInteger(rollout) || rollout < 0 || rollout > 100)
      return setProblem('must be a whole number from 0 to 100');
    setProblem(null);
    // Constraints, segments and variants set through the API stay as they are.
    save.mutate({
      ...(environment.defaultStrategy ?? {}),
      name: 'flexibleRollout',
      title: form.title.trim() || null,
      parameters: {
        rollout: String(rollout),
        stickiness: form.stickiness,
        // Without a group id each flag buckets by its own name (the evaluator's default).
        ...(form.groupId.trim() ? { groupId: form.groupId.trim() } : {}),
      },
    });
  };
  return (
    <Dialog
      open
      onOpenChange={(o) => (o ? null : onClose())}
      title={`Default strategy in ${environment.name}`}
    >
      <form onSubmit={submit} noValidate>
        <Field label="Title (optional)" htmlFor="default-title">
          <input
            id="default-title"
            value={form.title}
            onChange={(e) => setForm({ ...form, title: e.target.value })}
          />
        </Field>
        <div className="form-grid">
          <Field label="Rollout %" htmlFor="default-rollout" error={problem}>
            <input
              id="default-rollout"
              type="number"
              min={0}
              max={100}
              value={form.rollout}
              onChange={(e) => setForm({ ...form, rollout: e.target.value })}
            />
          </Field>
          <Field label="Stickiness" htmlFor="default-stickiness">
            <select
              id="default-stickiness"
              value={form.stickiness}
              onChange={(e) => setForm({ ...form, stickiness: e.target.value })}
            >
              {[...new Set([form.stickiness, ...(stickiness.data ?? ['default'])])].map((s) => (
                <option key={s}>{s}</option>
              ))}
            </select>
          </Field>
        </div>
        {kept > 0 ? (
          <p className="muted">
            The constraints and segments it has ({kept}) stay as they are; only the rollout changes here.
          </p>
        ) : null}
        <Field
          label="Group id"
          htmlFor="default-group"
          hint="Empty: each flag buckets users by its own name."
        >
          <input
            id="default-group"
            value={form.groupId}
            onChange={(e) => setForm({ ...form, groupId: e.target.value })}
          />
        </Field>
        <ErrorNotice error={save.error} />
        <div className="form-actions">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn-primary" disabled={save.isPending}>
            Save default strategy
          </button>
        </div>
      </form>
    </Dialog>
  );
}
