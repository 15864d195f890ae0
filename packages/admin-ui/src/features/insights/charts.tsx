import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';

const COLORS = ['#4f46e5', '#12805c', '#b54708', '#d92d20', '#0ea5e9', '#a855f7'];
const day = (d: string) => new Date(d).toLocaleDateString(undefined, { month: 'short', day: 'numeric' });

/**
 * Weeks from the first one with anything to count: earlier all-zero weeks would draw a line rising
 * towards the first flag (or user) before it existed.
 */
export function fromFirstCount<T extends object>(data: readonly T[], series: readonly string[]): T[] {
  const first = data.findIndex((point) =>
    series.some((s) => Number((point as Record<string, unknown>)[s] ?? 0) > 0),
  );
  return first === -1 ? [] : data.slice(first);
}

/**
 * A stacked-free chart of counts over weeks. Counts change in steps, so it draws steps: a smooth
 * curve between two weeks shows values (1.5 users) that never were.
 */
export function TrendChart({
  data,
  series,
  label,
  empty = 'Nothing to show yet.',
}: {
  data: { date: string }[];
  series: string[];
  label: string;
  empty?: string;
}) {
  const shown = fromFirstCount(data, series);
  if (shown.length === 0) return <p className="muted">{empty}</p>;
  return (
    <div className="chart" role="img" aria-label={label}>
      <ResponsiveContainer width="100%" height="100%">
        <AreaChart data={shown} margin={{ top: 8, right: 8, left: -16, bottom: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#eef0f5" />
          <XAxis dataKey="date" tickFormatter={day} fontSize={12} />
          <YAxis allowDecimals={false} fontSize={12} />
          <Tooltip labelFormatter={(d) => day(String(d))} formatter={(v) => Math.round(Number(v))} />
          <Legend />
          {series.map((s, i) => (
            <Area
              key={s}
              type="stepAfter"
              dataKey={s}
              dot={shown.length === 1}
              stroke={COLORS[i % COLORS.length]}
              fill={COLORS[i % COLORS.length]}
              fillOpacity={0.12}
            />
          ))}
        </AreaChart>
      </ResponsiveContainer>
    </div>
  );
}

/** Bars of a value per category. */
export function CategoryBars({
  data,
  x,
  y,
  label,
}: {
  data: Record<string, string | number>[];
  x: string;
  y: string;
  label: string;
}) {
  return (
    <div className="chart" role="img" aria-label={label}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, left: -16, bottom: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#eef0f5" />
          <XAxis dataKey={x} fontSize={12} />
          <YAxis allowDecimals={false} fontSize={12} />
          <Tooltip />
          <Bar dataKey={y} fill="#4f46e5" radius={[4, 4, 0, 0]} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
