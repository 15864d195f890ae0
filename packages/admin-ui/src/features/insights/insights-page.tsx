import { useQuery } from '@tanstack/react-query';
import { Card, ErrorNotice, Loading, PageHeader } from '../../components/ui/page';
import { instanceInsightsQueryOptions } from './api/insights';
import { CategoryBars, TrendChart } from './charts';

/** Instance-wide insights: users, flags and their trends. */
export default function InsightsPage() {
  const insights = useQuery(instanceInsightsQueryOptions());
  if (insights.isPending) return <Loading />;
  if (insights.error && !insights.data) return <ErrorNotice error={insights.error} />;
  const d = insights.data;
  const totals = new Map<string, number>();
  for (const t of d.environmentTypeTrends)
    totals.set(t.environmentType, (totals.get(t.environmentType) ?? 0) + t.totalUpdates);
  const updates = [...totals].map(([environmentType, totalUpdates]) => ({ environmentType, totalUpdates }));
  return (
    <>
      <PageHeader title="Insights" subtitle="How flags and people use this instance." />
      <div className="grid grid-4">
        <Card>
          <div className="stat">{d.flags.total}</div>
          <div className="stat-label">Flags</div>
        </Card>
        <Card>
          <div className="stat">{d.users.total}</div>
          <div className="stat-label">Users</div>
        </Card>
        <Card>
          <div className="stat">{d.users.active}</div>
          <div className="stat-label">Active users (60 days)</div>
        </Card>
        <Card>
          <div className="stat">{d.flagTrends.at(-1)?.stale ?? 0}</div>
          <div className="stat-label">Stale flags</div>
        </Card>
      </div>
      <div className="grid grid-2">
        <Card title="Flags over time">
          <TrendChart
            data={d.flagTrends}
            series={['total', 'active', 'stale', 'potentiallyStale']}
            label="Flags over time"
            empty="No flags yet."
          />
        </Card>
        <Card title="Users over time">
          <TrendChart
            data={d.userTrends}
            series={['total', 'active', 'inactive']}
            label="Users over time"
            empty="No users yet."
          />
        </Card>
        <Card title="Updates per environment type">
          <CategoryBars
            data={updates}
            x="environmentType"
            y="totalUpdates"
            label="Updates per environment type"
          />
        </Card>
        <Card title="Flags per project (latest week)">
          <CategoryBars
            data={d.projectFlagTrends
              .filter((p) => p.week === d.projectFlagTrends.at(-1)?.week)
              .map((p) => ({ project: p.project, total: p.total }))}
            x="project"
            y="total"
            label="Flags per project"
          />
        </Card>
      </div>
    </>
  );
}
