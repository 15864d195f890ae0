import type { ContextField } from '../../api/types';
import { Badge } from '../../components/ui/page';

/** A context field's name, description and legal values, then its stickiness: the first two cells of its row. */
export function ContextFieldCells({ field }: { field: ContextField }) {
  return (
    <>
      <td>
        <div className="cell-name">{field.name}</div>
        <div className="muted">{field.description}</div>
        <div className="chips">
          {field.legalValues.map((l) => (
            <span key={l.value} className="badge tag" title={l.description}>
              {l.value}
              {l.description ? <span className="muted"> · {l.description}</span> : null}
            </span>
          ))}
        </div>
      </td>
      <td>{field.stickiness ? <Badge tone="info">stickiness</Badge> : null}</td>
    </>
  );
}
