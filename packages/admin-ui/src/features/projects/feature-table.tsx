import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import type { FeatureSearchItem, ProjectEnvironmentView } from '../../api/types';
import { Badge, formatDay } from '../../components/ui/page';
import { Switch } from '../../components/ui/switch';
import { useCan, useWhyNot } from '../auth/permissions';
import type { FeatureFilters } from './feature-search';
import { useToggleEnvironment } from './use-toggle-environment';

interface Props {
  projectId: string;
  features: FeatureSearchItem[];
  environments: ProjectEnvironmentView[];
  selected: Set<string>;
  onSelect(names: Set<string>): void;
  filters: FeatureFilters;
  onSort(sortBy: FeatureFilters['sortBy']): void;
}

// Off the first row's path: the production confirmation (Radix's dialog) loads when first asked.
const ConfirmDialog = lazy(() =>
  import('../../components/ui/dialog').then((m) => ({ default: m.ConfirmDialog })),
);

const STAGE_TONE: Record<string, 'neutral' | 'info' | 'good' | 'warn'> = {
  initial: 'neutral',
  'pre-live': 'info',
  live: 'good',
  completed: 'warn',
};

/** The project's features with a switch per environment; production changes ask first. */
export function FeatureTable({
  projectId,
  features,
  environments,
  selected,
  onSelect,
  filters,
  onSort,
}: Props) {
  const can = useCan();
  const whyNot = useWhyNot();
  const toggle = useToggleEnvironment(projectId);
  const [pending, setPending] = useState<{ feature: string; environment: string; enabled: boolean } | null>(
    null,
  );
  const allSelected = features.length > 0 && features.every((f) => selected.has(f.name));
  const sortHeader = (key: FeatureFilters['sortBy'], label: string, className?: string) => (
    <th
      className={className}
      aria-sort={filters.sortBy === key ? (filters.sortOrder === 'asc' ? 'ascending' : 'descending') : 'none'}
    >
      <button type="button" onClick={() => onSort(key)}>
        {label} {filters.sortBy === key ? (filters.sortOrder === 'asc' ? '↑' : '↓') : ''}
      </button>
    </th>
  );
  const flip = (feature: string, env: ProjectEnvironmentView, enabled: boolean) => {
    if (env.type === 'production') setPending({ feature, environment: env.name, enabled });
    else toggle.mutate({ feature, environment: env.name, enabled });
  };
  return (
    <div className="table-wrap">
      <table>
        <thead>
          <tr>
            <th>
              <input
                type="checkbox"
                aria-label="Select all features on this page"
                checked={allSelected}
                onChange={() => onSelect(allSelected ? new Set() : new Set(features.map((f) => f.name)))}
              />
            </th>
            {sortHeader('name', 'Name')}
            {/* At phone width the name and the environment switches are what fits. */}
            {sortHeader('type', 'Type', 'hide-narrow')}
            <th className="hide-phone">Tags</th>
            <th className="hide-phone">Lifecycle</th>
            {sortHeader('createdAt', 'Created', 'hide-narrow')}
            {environments.map((env) => (
              <th key={env.name} className="env-column">
                {env.name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {features.map((f) => (
            <tr key={f.name}>
              <td>
                <input
                  type="checkbox"
                  aria-label={`Select ${f.name}`}
                  checked={selected.has(f.name)}
                  onChange={() => {
                    const next = new Set(selected);
                    if (next.has(f.name)) next.delete(f.name);
                    else next.add(f.name);
                    onSelect(next);
                  }}
                />
              </td>
              <td>
                <Link
                  className="cell-name"
                  to={`/projects/${encodeURIComponent(projectId)}/features/${encodeURIComponent(f.name)}`}
                >
                  {f.name}
                </Link>
                {f.stale ? (
                  <>
                    {' '}
                    <Badge tone="warn">stale</Badge>
                  </>
                ) : null}
                {f.description ? <div className="muted hide-phone">{f.description}</div> : null}
              </td>
              <td className="hide-narrow">{f.type}</td>
              <td className="hide-phone">
                <div className="chips">
                  {(f.tags ?? []).map((t) => (
                    <span key={`${t.type}:${t.value}`} className="badge tag">
                      {t.type}:{t.value}
                    </span>
                  ))}
                </div>
              </td>
              <td className="hide-phone">
                {f.lifecycle ? <Badge tone={STAGE_TONE[f.lifecycle.stage]}>{f.lifecycle.stage}</Badge> : '—'}
              </td>
              <td className="muted hide-narrow">
                <time dateTime={f.createdAt}>{formatDay(f.createdAt)}</time>
              </td>
              {environments.map((env) => {
                const state = f.environments.find((e) => e.name === env.name);
                const allowed = can('UPDATE_FEATURE_ENVIRONMENT', {
                  project: projectId,
                  environment: env.name,
                });
                return (
                  <td key={env.name}>
                    <Switch
                      checked={state?.enabled ?? false}
                      disabled={!allowed || !state}
                      label={`${f.name} in ${env.name}`}
                      title={
                        allowed
                          ? `${f.name} in ${env.name}`
                          : (whyNot('UPDATE_FEATURE_ENVIRONMENT', {
                              project: projectId,
                              environment: env.name,
                            }) ?? undefined)
                      }
                      onCheckedChange={(enabled) => flip(f.name, env, enabled)}
                    />
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {pending ? (
        <Suspense fallback={null}>
          <ConfirmDialog
            open
            onOpenChange={(open) => !open && setPending(null)}
            title="Change a production environment"
            message={`${pending.enabled ? 'Enable' : 'Disable'} ${pending.feature} in ${pending.environment}? This is a production environment.`}
            confirmLabel={pending.enabled ? 'Enable in production' : 'Disable in production'}
            danger
            onConfirm={() => toggle.mutate(pending)}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
