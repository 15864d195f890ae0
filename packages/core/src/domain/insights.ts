export interface DoraMetrics {
  projectAverage: number;
  features: { name: string; timeToProduction: number }[];
}

export interface InstanceInsights {
  users: { total: number; active: number; inactive: number };
  flags: { total: number };
  userTrends: { date: string; total: number; active: number; inactive: number }[];
  flagTrends: { date: string; total: number; active: number; stale: number; potentiallyStale: number }[];
  projectFlagTrends: {
    week: string;
    project: string;
    health?: number;
    timeToProduction?: number;
    date: string;
    total: number;
    active: number;
    stale: number;
    potentiallyStale: number;
    users?: number;
  }[];
  metricsSummaryTrends: {
    week: string;
    date: string;
    project: string;
    totalRequests: number;
    totalYes: number;
    totalNo: number;
    totalApps: number;
    totalFlags: number;
    totalEnvironments: number;
  }[];
  environmentTypeTrends: { date: string; week: string; environmentType: string; totalUpdates: number }[];
}

/** Days a feature type lives before it is potentially stale (null: never). */
export const FEATURE_TYPE_LIFETIME_DAYS: Readonly<Record<string, number | null>> = {
  release: 40,
  experiment: 40,
  operational: 7,
  'kill-switch': null,
  permission: null,
};
