import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { Card, ErrorNotice, Loading, PageHeader } from '../../components/ui/page';
import { projectDoraQueryOptions, projectOverviewQueryOptions } from './api/insights';
import { CategoryBars } from './charts';

const Stat = ({ value, label, previous }: { value: number; label: string; previous?: number }) => (
  <Card>
    <div className="stat">{Math.round(value * 10) / 10}</div>
    <div className="stat-label">
      {label}
      {previous !== undefined ? ` · previous ${previous}` : ''}
    </div>
  </Card>
);

/** A project's health, activity statistics, feature types and DORA lead time. */
export default function ProjectOverviewPage() {
  const projectId = useParams().projectId ?? '';
  const overview = useQuery(projectOverviewQueryOptions(projectId));
  const dora = useQuery(projectDoraQueryOptions(projectId));
  if (overview.isPending) return <Loading />;
  if (overview.error && !overview.data) return <ErrorNotice error={overview.error} />;
  const o = overview.data;
  return (
    <>
      <div className="breadcrumbs">
        <Link to="/projects">Projects</Link> /{' '}
        <Link to={`/projects/${encodeURIComponent(projectId)}`}>{projectId}</Link> / overview
      </div>
      <PageHeader title={`${o.name}: overview`} subtitle={o.description} />
      <div className="grid grid-4">
        <Card>
          <div className="stat">{o.health}%</div>
          <div className="stat-label">Health</div>
          <div className="health-bar" aria-hidden="true">
            <span style={{ width: `${o.health}%` }} />
          </div>
        </Card>
        <Stat
          value={o.stats.createdCurrentWindow}
          previous={o.stats.createdPastWindow}
          label="Flags created (30 days)"
        />
        <Stat
          value={o.stats.archivedCurrentWindow}
          previous={o.stats.archivedPastWindow}
          label="Flags archived (30 days)"
        />
        <Stat
          value={o.stats.projectActivityCurrentWindow}
          previous={o.stats.projectActivityPastWindow}
          label="Changes (30 days)"
        />
      </div>
      <div className="grid grid-2">
        <Card title="Feature types">
          <CategoryBars data={o.featureTypeCounts} x="type" y="count" label="Feature types" />
        </Card>
        <Card title="DORA: lead time to production">
          <ErrorNotice error={dora.error} />
          {dora.data ? (
            <>
              {/* Without a feature in production there is no lead time to show (not "0 days"). */}
              {dora.data.features.length === 0 ? (
                <p className="muted">No feature of this project has been enabled in production yet.</p>
              ) : (
                <>
                  <div className="stat">{Math.round(dora.data.projectAverage * 10) / 10} days</div>
                  <div className="stat-label">Average time from creation to enabled in production</div>
                </>
              )}
              <table style={{ marginTop: 10 }}>
                <tbody>
                  {dora.data.features.slice(0, 8).map((f) => (
                    <tr key={f.name}>
                      <td>{f.name}</td>
                      <td>{Math.round(f.timeToProduction * 10) / 10} days</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          ) : null}
        </Card>
        <Card
          title="Settings"
          actions={
            <Link className="btn btn-small" to={`/projects/${encodeURIComponent(projectId)}/settings`}>
              Edit settings &amp; members
            </Link>
          }
        >
          <div className="stack">
            <div>
              Mode: <strong>{o.mode}</strong> · default stickiness <strong>{o.defaultStickiness}</strong>
            </div>
            <div>
              Members: <strong>{o.members}</strong> · feature limit{' '}
              <strong>{o.featureLimit ?? 'none'}</strong>
            </div>
            <div>Environments: {o.environments.map((e) => e.environment).join(', ')}</div>
            {o.featureNaming.pattern ? (
              <div>
                Naming pattern <code>{o.featureNaming.pattern}</code>
              </div>
            ) : null}
          </div>
        </Card>
      </div>
    </>
  );
}
