import type { ContextField } from '../../api/types';
import { Field } from '../../components/ui/page';

export const BUILT_IN_STRATEGIES = [
  {
    name: 'flexibleRollout',
    label: 'Gradual rollout',
    description: 'A percentage of users, sticky on a context field.',
  },
  {
    name: 'default',
    label: 'Standard (on for everyone)',
    description: 'On for everyone matching the constraints.',
  },
  { name: 'userWithId', label: 'User IDs', description: 'On for a list of user ids.' },
  {
    name: 'gradualRolloutRandom',
    label: 'Gradual rollout: random',
    description: 'A random percentage of requests.',
  },
  {
    name: 'gradualRolloutSessionId',
    label: 'Gradual rollout: session id',
    description: 'A percentage of sessions.',
  },
  { name: 'gradualRolloutUserId', label: 'Gradual rollout: user id', description: 'A percentage of users.' },
  { name: 'remoteAddress', label: 'IPs', description: 'On for a list of IP addresses.' },
  { name: 'applicationHostname', label: 'Hosts', description: 'On for a list of host names.' },
] as const;

/** The parameters a built-in strategy starts with. */
export function defaultParameters(
  name: string,
  featureName: string,
  stickiness = 'default',
): Record<string, string> {
  switch (name) {
    case 'flexibleRollout':
      return { rollout: '100', stickiness, groupId: featureName };
    case 'gradualRolloutRandom':
      return { percentage: '50' };
    case 'gradualRolloutSessionId':
    case 'gradualRolloutUserId':
      return { percentage: '50', groupId: featureName };
    case 'userWithId':
      return { userIds: '' };
    case 'remoteAddress':
      return { IPs: '' };
    case 'applicationHostname':
      return { hostNames: '' };
    default:
      return {};
  }
}

/** What the API would reject about the parameters. */
export function parametersProblem(name: string, p: Record<string, string>): string | null {
  const pct = p.rollout ?? p.percentage;
  if (pct !== undefined && !(Number(pct) >= 0 && Number(pct) <= 100 && pct !== ''))
    return 'The percentage must be between 0 and 100.';
  for (const key of ['userIds', 'IPs', 'hostNames'] as const)
    if (key in p && !(p[key] ?? '').trim()) return `Enter at least one value for ${key}.`;
  return name ? null : 'Pick a strategy.';
}

interface Props {
  name: string;
  parameters: Record<string, string>;
  contextFields: ContextField[];
  onChange(p: Record<string, string>): void;
}

/** A form for a built-in strategy's parameters. */
export function StrategyParameters({ name, parameters: p, contextFields, onChange }: Props) {
  const set = (key: string, value: string) => onChange({ ...p, [key]: value });
  const percentKey = 'rollout' in p ? 'rollout' : 'percentage' in p ? 'percentage' : null;
  const stickinessOptions = [
    'default',
    'userId',
    'sessionId',
    'random',
    ...contextFields.filter((f) => f.stickiness).map((f) => f.name),
  ];
  return (
    <div className="form-grid">
      {percentKey ? (
        <Field label={`Rollout: ${p[percentKey]}%`} htmlFor="param-rollout">
          <input
            id="param-rollout"
            type="range"
            min={0}
            max={100}
            value={p[percentKey] ?? '0'}
            onChange={(e) => set(percentKey, e.target.value)}
          />
        </Field>
      ) : null}
      {name === 'flexibleRollout' ? (
        <Field label="Stickiness" htmlFor="param-stickiness">
          <select
            id="param-stickiness"
            value={p.stickiness ?? 'default'}
            onChange={(e) => set('stickiness', e.target.value)}
          >
            {[...new Set(stickinessOptions)].map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </Field>
      ) : null}
      {'groupId' in p ? (
        <Field label="Group id" htmlFor="param-group">
          <input id="param-group" value={p.groupId ?? ''} onChange={(e) => set('groupId', e.target.value)} />
        </Field>
      ) : null}
      {(['userIds', 'IPs', 'hostNames'] as const)
        .filter((key) => key in p)
        .map((key) => (
          <Field
            key={key}
            label={{ userIds: 'User ids', IPs: 'IP addresses', hostNames: 'Host names' }[key]}
            htmlFor={`param-${key}`}
            hint="Comma separated"
          >
            <input id={`param-${key}`} value={p[key] ?? ''} onChange={(e) => set(key, e.target.value)} />
          </Field>
        ))}
      {name === 'default' ? (
        <p className="muted">No parameters: on for everyone who matches the constraints and segments.</p>
      ) : null}
    </div>
  );
}
