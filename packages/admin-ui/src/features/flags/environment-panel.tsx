import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client';
import type { FeatureEnvironmentView, FeatureStrategy, FeatureView } from '../../api/types';
import { ActionButton } from '../../components/ui/action-button';
import { ConfirmDialog } from '../../components/ui/dialog';
import { Badge, EmptyState } from '../../components/ui/page';
import { Switch } from '../../components/ui/switch';
import { answerOf } from '../../lib/api-answer';
import { useApiMutation } from '../../lib/use-api-mutation';
import { useCan, useWhyNot } from '../auth/permissions';
import { pendingKey } from '../change-requests/draft-bar';
import { draftChange, draftedMessage, useDraftEnvironment } from '../change-requests/draft-change';
import { featureKey } from './api/feature';
import { useSegments } from './api/segments';
import { CopyStrategiesDialog } from './copy-strategies-dialog';
import { StrategyDialog } from './strategy-dialog';
import { VariantsDialog } from './variants-dialog';

interface Props {
  feature: FeatureView;
  env: FeatureEnvironmentView;
}

const describe = (s: FeatureStrategy) => {
  const p = s.parameters;
  if (p.rollout !== undefined) return `${p.rollout}% of ${p.stickiness ?? 'default'}`;
  if (p.percentage !== undefined) return `${p.percentage}%`;
  return p.userIds || p.IPs || p.hostNames || 'everyone';
};

/** One environment of a feature: its switch, ordered strategies and variants. */
export function EnvironmentPanel({ feature, env }: Props) {
  const can = useCan();
  const whyNot = useWhyNot();
  const queryClient = useQueryClient();
  const segments = useSegments().data ?? [];
  const key = featureKey(feature.project, feature.name);
  const scope = { project: feature.project, environment: env.name };
  const [editing, setEditing] = useState<FeatureStrategy | 'new' | null>(null);
  const [confirmProd, setConfirmProd] = useState<boolean | null>(null);
  const [variantsOpen, setVariantsOpen] = useState(false);
  const [copying, setCopying] = useState<FeatureStrategy[] | null>(null);
  const path = { projectId: feature.project, featureName: feature.name, environment: env.name };
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  // Where change requests are required, every edit here adds the change to the caller's draft instead.
  const guarded = useDraftEnvironment(feature.project, [env.name]) !== null;
  const pending = pendingKey(feature.project, feature.name);
  const drafted = draftedMessage(env.name);
  const toggle = useApiMutation({
    mutationFn: (enabled: boolean) =>
      guarded
        ? draftChange(feature.project, env.name, feature.name, 'updateEnabled', { enabled })
        : answerOf(
            enabled
              ? api.POST(
                  '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/on',
                  {
                    params: { path },
                  },
                )
              : api.POST(
                  '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/off',
                  { params: { path } },
                ),
          ),
    invalidates: [pending],
    ...(guarded ? { success: drafted } : {}),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: ['projects', feature.project, 'features'] });
    },
  });
  // Optimistic: the switch shows the requested state until the server answers; on failure it snaps back.
  const shown =
    toggle.isPending && toggle.variables !== undefined && !guarded ? toggle.variables : env.enabled;
  const flip = (enabled: boolean) =>
    env.type === 'production' && !guarded
      ? setConfirmProd(enabled)
      : toggle.mutate(enabled, { onSettled: refresh });
  const remove = useApiMutation({
    mutationFn: (strategyId: string) =>
      guarded
        ? draftChange(feature.project, env.name, feature.name, 'deleteStrategy', { id: strategyId })
        : answerOf(
            api.DELETE(
              '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/{strategyId}',
              { params: { path: { ...path, strategyId } } },
            ),
          ),
    invalidates: [key, pending],
    success: guarded ? drafted : 'Strategy deleted',
  });
  const reorder = useApiMutation({
    mutationFn: (order: { id: string; sortOrder: number }[]) =>
      guarded
        ? draftChange(feature.project, env.name, feature.name, 'reorderStrategy', order)
        : answerOf(
            api.POST(
              '/api/admin/projects/{projectId}/features/{featureName}/environments/{environment}/strategies/set-sort-order',
              { params: { path }, body: order },
            ),
          ),
    invalidates: [key, pending],
    ...(guarded ? { success: drafted } : {}),
  });
  const strategies = [...env.strategies].sort((a, b) => a.sortOrder - b.sortOrder);
  const move = (index: number, by: number) => {
    const next = [...strategies];
    const [item] = next.splice(index, 1);
    if (!item) return;
    next.splice(index + by, 0, item);
    reorder.mutate(next.map((s, i) => ({ id: s.id, sortOrder: i })));
  };
  return (
    <section className="env-card" aria-label={`Environment ${env.name}`}>
      <div className="env-head">
        <Switch
          checked={shown}
          disabled={!can('UPDATE_FEATURE_ENVIRONMENT', scope) || toggle.isPending}
          title={whyNot('UPDATE_FEATURE_ENVIRONMENT', scope) ?? undefined}
          label={`${feature.name} in ${env.name}`}
          onCheckedChange={flip}
        />
        <h2>{env.name}</h2>
        <Badge tone={env.type === 'production' ? 'warn' : 'neutral'}>{env.type}</Badge>
        <span className="muted">
          {shown ? 'On' : 'Off'} · {strategies.length} strateg{strategies.length === 1 ? 'y' : 'ies'} ·{' '}
          {env.variants.length} variant(s)
        </span>
        <span className="spacer" />
        {strategies.length > 1 ? (
          <ActionButton
            type="button"
            className="btn btn-small"
            aria-label={`Copy all strategies of ${env.name}`}
            onClick={() => setCopying(strategies)}
          >
            Copy all…
          </ActionButton>
        ) : null}
        <ActionButton
          type="button"
          className="btn btn-small"
          disabledReason={whyNot('UPDATE_FEATURE_ENVIRONMENT_VARIANTS', scope)}
          onClick={() => setVariantsOpen(true)}
        >
          Variants
        </ActionButton>
        <ActionButton
          type="button"
          className="btn btn-small btn-primary"
          disabledReason={whyNot('CREATE_FEATURE_STRATEGY', scope)}
          onClick={() => setEditing('new')}
        >
          Add strategy
        </ActionButton>
      </div>
      <div className="env-body">
        {strategies.length === 0 ? (
          <EmptyState>No strategies: when on, the server adds the project's default strategy.</EmptyState>
        ) : null}
        <ol className="stack" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {strategies.map((s, i) => (
            <li key={s.id} className="strategy">
              <div className="strategy-head">
                <strong>{s.title || s.name}</strong>
                {s.title ? <span className="muted">{s.name}</span> : null}
                {s.disabled ? <Badge tone="bad">disabled</Badge> : null}
                <Badge tone="info">{describe(s)}</Badge>
                <span className="spacer" />
                <ActionButton
                  type="button"
                  className="btn btn-small btn-ghost"
                  aria-label={`Move ${s.title || s.name} up`}
                  disabledReason={
                    whyNot('UPDATE_FEATURE_STRATEGY', scope) ??
                    (i === 0 ? 'Already the first strategy.' : null)
                  }
                  onClick={() => move(i, -1)}
                >
                  ↑
                </ActionButton>
                <ActionButton
                  type="button"
                  className="btn btn-small btn-ghost"
                  aria-label={`Move ${s.title || s.name} down`}
                  disabledReason={
                    whyNot('UPDATE_FEATURE_STRATEGY', scope) ??
                    (i === strategies.length - 1 ? 'Already the last strategy.' : null)
                  }
                  onClick={() => move(i, 1)}
                >
                  ↓
                </ActionButton>
                <ActionButton
                  type="button"
                  className="btn btn-small"
                  disabledReason={whyNot('UPDATE_FEATURE_STRATEGY', scope)}
                  onClick={() => setEditing(s)}
                >
                  Edit
                </ActionButton>
                <ActionButton
                  type="button"
                  className="btn btn-small"
                  aria-label={`Copy ${s.title || s.name} to other environments`}
                  onClick={() => setCopying([s])}
                >
                  Copy…
                </ActionButton>
                <ActionButton
                  type="button"
                  className="btn btn-small btn-ghost"
                  disabledReason={whyNot('DELETE_FEATURE_STRATEGY', scope)}
                  onClick={() => remove.mutate(s.id)}
                >
                  Delete
                </ActionButton>
              </div>
              {s.segments.length ? (
                <div className="chips" style={{ marginTop: 6 }}>
                  {s.segments.map((id) => (
                    <Badge key={id} tone="info">
                      segment: {segments.find((x) => x.id === id)?.name ?? id}
                    </Badge>
                  ))}
                </div>
              ) : null}
              {s.constraints.map((c, j) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: rows are plain values without identity and are only appended or removed
                <div key={j} className="mono" style={{ marginTop: 4 }}>
                  {c.inverted ? 'NOT ' : ''}
                  {c.contextName} {c.operator} {c.value ?? (c.values ?? []).join(', ')}
                  {c.caseInsensitive ? ' (case insensitive)' : ''}
                </div>
              ))}
              {s.variants.length ? (
                <div className="muted">Variants: {s.variants.map((v) => v.name).join(', ')}</div>
              ) : null}
            </li>
          ))}
        </ol>
      </div>
      {editing ? (
        <StrategyDialog
          projectId={feature.project}
          featureName={feature.name}
          environment={env.name}
          strategy={editing === 'new' ? undefined : editing}
          open
          onOpenChange={(open) => !open && setEditing(null)}
          onSaved={refresh}
        />
      ) : null}
      {copying ? (
        <CopyStrategiesDialog
          feature={feature}
          from={env.name}
          strategies={copying}
          onClose={() => setCopying(null)}
        />
      ) : null}
      {variantsOpen ? (
        <VariantsDialog feature={feature} env={env} onClose={() => setVariantsOpen(false)} />
      ) : null}
      <ConfirmDialog
        open={confirmProd !== null}
        onOpenChange={(open) => !open && setConfirmProd(null)}
        title="Change a production environment"
        message={`${confirmProd ? 'Enable' : 'Disable'} ${feature.name} in ${env.name}? This is a production environment.`}
        confirmLabel="Yes, change production"
        danger
        onConfirm={() => confirmProd !== null && toggle.mutate(confirmProd, { onSettled: refresh })}
      />
    </section>
  );
}
