import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { preloadPageWhenIdle } from '../../app/pages';
import { ActionButton } from '../../components/ui/action-button';
import { EmptyState, ErrorNotice, Loading, PageHeader } from '../../components/ui/page';
import { FEATURE_TYPES, LIFECYCLE_STAGES } from '../../lib/domain';
import { useTypingPause } from '../../lib/use-typing-pause';
import { useWhyNot } from '../auth/permissions';
import { getProjectQueryOptions, projectEnvironmentsQueryOptions } from './api';
import {
  defaultFilters,
  type FeatureFilters,
  featureSearchQueryOptions,
  SEARCH_PAUSE_MS,
  useFeatureSearch,
} from './feature-search';
import { FeatureTable } from './feature-table';

// Off the first row's path: the bulk actions (a menu) and the new-flag dialog (core's validation rules)
// load when first shown.
const BulkActions = lazy(() => import('./bulk-actions').then((m) => ({ default: m.BulkActions })));
const CreateFeatureDialog = lazy(() =>
  import('./create-feature-dialog').then((m) => ({ default: m.CreateFeatureDialog })),
);

/** A project's feature table: search, filters, sorting, paging, bulk actions. */
export default function ProjectPage() {
  const projectId = useParams().projectId ?? '';
  const project = useQuery(getProjectQueryOptions(projectId));
  const environments = useQuery(projectEnvironmentsQueryOptions(projectId));
  const envNames = (environments.data ?? []).map((e) => e.name);
  const [filters, setFilters] = useState<FeatureFilters>(defaultFilters);
  const search = useFeatureSearch(projectId, filters, envNames);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [creating, setCreating] = useState(false);
  const whyNot = useWhyNot();
  const update = (patch: Partial<FeatureFilters>) => setFilters((f) => ({ ...f, offset: 0, ...patch }));
  // What is typed shows at once; it is searched (and paging starts over) once typing pauses. The
  // request starts right then, from the timer, while React renders the new filters; the page then
  // finds it under way (and a newer one aborts it, the table keeping the last answer meanwhile).
  const [typed, setTyped] = useState({ query: defaultFilters.query, tag: defaultFilters.tag });
  const queryClient = useQueryClient();
  const current = useRef({ filters, envNames });
  current.current = { filters, envNames };
  useTypingPause(
    typed,
    (settled) => {
      const f = current.current.filters;
      if (f.query === settled.query && f.tag === settled.tag) return;
      const next = { ...f, offset: 0, query: settled.query, tag: settled.tag };
      const options = featureSearchQueryOptions(projectId, next, current.current.envNames);
      if (options.enabled !== false) void queryClient.prefetchQuery(options);
      setFilters(next);
    },
    SEARCH_PAUSE_MS,
  );
  // Once the rows are on screen, the feature page's code loads in idle time: opening a flag is what
  // people do from here (at 10,000 flags it took ~370 ms, mostly that code).
  const shown = search.data !== undefined;
  useEffect(() => {
    if (shown) preloadPageWhenIdle('projects/:projectId/features/:featureName');
  }, [shown]);
  const total = search.data?.total ?? 0;
  const filtering = Boolean(
    filters.query ||
      filters.type ||
      filters.tag ||
      filters.state ||
      filters.lifecycle ||
      filters.enabledSomewhere,
  );
  if (project.isPending) return <Loading />;
  if (project.error && !project.data) return <ErrorNotice error={project.error} />;
  return (
    <>
      <div className="breadcrumbs">
        <Link to="/projects">Projects</Link> / {project.data.id}
      </div>
      <PageHeader
        title={project.data.name}
        subtitle={project.data.description}
        actions={
          <>
            <Link className="btn" to={`/projects/${encodeURIComponent(projectId)}/overview`}>
              Overview &amp; health
            </Link>
            <Link className="btn" to={`/projects/${encodeURIComponent(projectId)}/settings`}>
              Settings
            </Link>
            <ActionButton
              type="button"
              className="btn btn-primary"
              disabledReason={whyNot('CREATE_FEATURE', { project: projectId })}
              onClick={() => setCreating(true)}
            >
              New feature flag
            </ActionButton>
          </>
        }
      />
      <section className="card">
        <search className="toolbar">
          <input
            type="search"
            aria-label="Search features"
            placeholder="Search by name, description or tag"
            value={typed.query}
            onChange={(e) => setTyped({ ...typed, query: e.target.value })}
          />
          <select aria-label="Type" value={filters.type} onChange={(e) => update({ type: e.target.value })}>
            <option value="">All types</option>
            {FEATURE_TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
          <input
            aria-label="Tag (type:value)"
            placeholder="tag type:value"
            style={{ width: 150 }}
            value={typed.tag}
            onChange={(e) => setTyped({ ...typed, tag: e.target.value })}
          />
          <select
            aria-label="State"
            value={filters.state}
            onChange={(e) =>
              update({
                state: e.target.value === 'stale' ? 'stale' : e.target.value === 'active' ? 'active' : '',
              })
            }
          >
            <option value="">Stale or active</option>
            <option value="stale">Stale</option>
            <option value="active">Active</option>
          </select>
          <select
            aria-label="Lifecycle"
            value={filters.lifecycle}
            onChange={(e) => update({ lifecycle: e.target.value })}
          >
            <option value="">Any lifecycle</option>
            {LIFECYCLE_STAGES.filter((s) => s !== 'archived').map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
          <label className="check">
            <input
              type="checkbox"
              checked={filters.enabledSomewhere}
              onChange={(e) => update({ enabledSomewhere: e.target.checked })}
            />
            Enabled somewhere
          </label>
        </search>
        {selected.size > 0 ? (
          <Suspense fallback={null}>
            <BulkActions
              projectId={projectId}
              selected={[...selected]}
              environments={environments.data ?? []}
              onDone={() => setSelected(new Set())}
            />
          </Suspense>
        ) : null}
        <ErrorNotice error={search.error} />
        {search.isPending ? <Loading /> : null}
        {search.data && search.data.features.length === 0 ? (
          <EmptyState>
            {!filtering ? 'No feature flags yet. Create the first one.' : 'No feature flags match.'}
          </EmptyState>
        ) : null}
        {search.data && search.data.features.length > 0 ? (
          <FeatureTable
            projectId={projectId}
            features={search.data.features}
            environments={environments.data ?? []}
            selected={selected}
            onSelect={setSelected}
            filters={filters}
            onSort={(sortBy) =>
              setFilters((f) => ({
                ...f,
                offset: 0,
                sortBy,
                sortOrder: f.sortBy === sortBy && f.sortOrder === 'asc' ? 'desc' : 'asc',
              }))
            }
          />
        ) : null}
        <div className="pager">
          <span className="muted">
            {total === 0
              ? 'No results'
              : `${filters.offset + 1}–${Math.min(filters.offset + filters.limit, total)} of ${total}`}
          </span>
          <div className="row">
            <select
              aria-label="Rows per page"
              value={filters.limit}
              onChange={(e) => update({ limit: Number(e.target.value) })}
            >
              {[10, 25, 50, 100].map((n) => (
                <option key={n} value={n}>
                  {n} per page
                </option>
              ))}
            </select>
            <ActionButton
              type="button"
              className="btn btn-small"
              disabledReason={filters.offset === 0 ? 'This is the first page.' : null}
              onClick={() => setFilters((f) => ({ ...f, offset: Math.max(0, f.offset - f.limit) }))}
            >
              Previous
            </ActionButton>
            <ActionButton
              type="button"
              className="btn btn-small"
              disabledReason={filters.offset + filters.limit >= total ? 'This is the last page.' : null}
              onClick={() => setFilters((f) => ({ ...f, offset: f.offset + f.limit }))}
            >
              Next
            </ActionButton>
          </div>
        </div>
      </section>
      {creating ? (
        <Suspense fallback={null}>
          <CreateFeatureDialog project={project.data} open onOpenChange={setCreating} />
        </Suspense>
      ) : null}
    </>
  );
}
