import type { PlaygroundFeature, PlaygroundStrategy } from '../../api/types';
import { Badge } from '../../components/ui/page';

const verdict = (value: boolean | 'unknown') => (
  <span className={value === 'unknown' ? 'result-unknown' : value ? 'result-true' : 'result-false'}>
    {value === 'unknown' ? 'unknown' : value ? 'true' : 'false'}
  </span>
);

function ConstraintLines({ constraints }: { constraints: PlaygroundStrategy['constraints'] }) {
  return (
    <>
      {constraints.map((c, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are plain values without identity and are only appended or removed
        <div key={i} className="mono">
          {verdict(c.result)} {c.inverted ? 'NOT ' : ''}
          {c.contextName} {c.operator} {c.value ?? (c.values ?? []).join(', ')}
        </div>
      ))}
    </>
  );
}

/** Why a feature evaluated as it did: each strategy, its constraints and segments. */
export function PlaygroundExplanation({ feature }: { feature: PlaygroundFeature }) {
  return (
    <div className="stack">
      {!feature.isEnabledInCurrentEnvironment ? (
        <div className="notice notice-info">
          The feature is off in this environment, so no strategy is evaluated for SDKs.
        </div>
      ) : null}
      {feature.hasUnsatisfiedDependency ? (
        <div className="notice notice-info">A parent dependency is not satisfied.</div>
      ) : null}
      {feature.strategies.data.length === 0 ? <p className="muted">No strategies.</p> : null}
      {feature.strategies.data.map((s) => (
        <div key={s.id} className="strategy">
          <div className="strategy-head">
            <strong>{s.title || s.name}</strong>
            {verdict(s.result.enabled)}
            <Badge>{s.result.evaluationStatus}</Badge>
            {s.disabled ? <Badge tone="bad">disabled</Badge> : null}
            <span className="muted mono">
              {Object.entries(s.parameters)
                .map(([k, v]) => `${k}=${v}`)
                .join(' ')}
            </span>
          </div>
          {s.segments.map((seg) => (
            <div key={seg.id} style={{ marginTop: 6 }}>
              <div>
                Segment <strong>{seg.name}</strong> {verdict(seg.result)}
              </div>
              <ConstraintLines constraints={seg.constraints} />
            </div>
          ))}
          {s.constraints.length ? (
            <div style={{ marginTop: 6 }}>
              <div className="hint">Constraints</div>
              <ConstraintLines constraints={s.constraints} />
            </div>
          ) : null}
          {s.result.variant ? <div className="muted">Variant: {s.result.variant.name}</div> : null}
        </div>
      ))}
    </div>
  );
}

export { verdict };
