import { useQuery } from '@tanstack/react-query';
import { type FormEvent, Fragment, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { PlaygroundFeature } from '../../api/types';
import { Card, ErrorNotice, Field, PageHeader } from '../../components/ui/page';
import { useDebounced } from '../../lib/use-debounced';
import {
  evaluateQueryOptions,
  listContextFieldsQueryOptions,
  listEnvironmentsQueryOptions,
  listProjectsQueryOptions,
  type PlaygroundBody,
} from './api/playground';
import { PlaygroundExplanation, verdict } from './playground-result';

/** Results shown per page: the server evaluates every feature, but explains and sends only these. */
export const PLAYGROUND_PAGE = 50;
/** Typing in the name filter searches once it pauses this long. */
const FILTER_DEBOUNCE_MS = 150;

const BUILT_IN_CONTEXT = new Set([
  'appName',
  'userId',
  'sessionId',
  'remoteAddress',
  'currentTime',
  'environment',
]);

/** Evaluates a context against features and explains each result. */
export default function PlaygroundPage() {
  const [params] = useSearchParams();
  const environments = useQuery(listEnvironmentsQueryOptions());
  const projects = useQuery(listProjectsQueryOptions());
  const contextFields = useQuery(listContextFieldsQueryOptions());
  const [environment, setEnvironment] = useState('development');
  const [chosen, setChosen] = useState<string[]>(params.get('projects')?.split(',').filter(Boolean) ?? []);
  const [context, setContext] = useState<Record<string, string>>({
    appName: 'playground',
    userId: '',
    sessionId: '',
    remoteAddress: '',
    currentTime: '',
  });
  const [properties, setProperties] = useState<Record<string, string>>({});
  const [open, setOpen] = useState<string | null>(params.get('feature'));
  const [problem, setProblem] = useState<string | null>(null);
  // The request as last submitted; the name filter and the page apply to it without submitting again.
  const [submitted, setSubmitted] = useState<PlaygroundBody | null>(null);
  const [nameFilter, setNameFilter] = useState(params.get('feature') ?? '');
  const query = useDebounced(nameFilter.trim(), FILTER_DEBOUNCE_MS);
  const [page, setPage] = useState({ query, offset: 0 });
  // A new filter starts at the first page.
  const offset = page.query === query ? page.offset : 0;
  const evaluate = useQuery(evaluateQueryOptions(submitted, query, offset, PLAYGROUND_PAGE));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found = context.appName ? null : 'The context needs an appName.';
    setProblem(found);
    if (found) return;
    setPage({ query, offset: 0 });
    setSubmitted({
      environment,
      projects: chosen.length ? chosen : '*',
      context: {
        ...Object.fromEntries(Object.entries(context).filter(([, v]) => v)),
        appName: context.appName ?? '',
        ...(context.currentTime ? { currentTime: new Date(context.currentTime).toISOString() } : {}),
        properties: Object.fromEntries(Object.entries(properties).filter(([, v]) => v)),
      },
    });
    // Evaluating the same request again asks the server again (flags may have changed).
    if (submitted !== null) void evaluate.refetch();
  };
  const custom = (contextFields.data ?? []).filter((f) => !BUILT_IN_CONTEXT.has(f.name));
  const input = (name: string, label: string, type = 'text') => (
    <Field label={label} htmlFor={`ctx-${name}`} error={name === 'appName' ? problem : null}>
      <input
        id={`ctx-${name}`}
        type={type}
        value={context[name] ?? ''}
        onChange={(e) => setContext({ ...context, [name]: e.target.value })}
      />
    </Field>
  );
  const features = evaluate.data?.features ?? [];
  const total = evaluate.data?.total ?? features.length;
  return (
    <>
      <PageHeader title="Playground" subtitle="See how your flags evaluate for a context, and why." />
      <form onSubmit={submit} className="card">
        <div className="form-grid">
          <Field label="Environment" htmlFor="pg-env">
            <select id="pg-env" value={environment} onChange={(e) => setEnvironment(e.target.value)}>
              {(environments.data?.environments ?? []).map((env) => (
                <option key={env.name}>{env.name}</option>
              ))}
            </select>
          </Field>
          <div className="field">
            <span style={{ fontWeight: 550, fontSize: 13 }}>Projects</span>
            <fieldset className="chips" aria-label="Projects">
              {(projects.data?.projects ?? []).map((p) => (
                <button
                  key={p.id}
                  type="button"
                  className="chip-toggle"
                  aria-pressed={chosen.includes(p.id)}
                  onClick={() =>
                    setChosen(chosen.includes(p.id) ? chosen.filter((x) => x !== p.id) : [...chosen, p.id])
                  }
                >
                  {p.name}
                </button>
              ))}
              <span className="hint">{chosen.length ? '' : 'All projects'}</span>
            </fieldset>
          </div>
          {input('appName', 'appName')}
          {input('userId', 'userId')}
          {input('sessionId', 'sessionId')}
          {input('remoteAddress', 'remoteAddress')}
          {input('currentTime', 'currentTime', 'datetime-local')}
          {custom.map((f) => (
            <Field key={f.name} label={f.name} htmlFor={`ctx-prop-${f.name}`}>
              {f.legalValues.length ? (
                <select
                  id={`ctx-prop-${f.name}`}
                  value={properties[f.name] ?? ''}
                  onChange={(e) => setProperties({ ...properties, [f.name]: e.target.value })}
                >
                  <option value="">—</option>
                  {f.legalValues.map((l) => (
                    <option key={l.value}>{l.value}</option>
                  ))}
                </select>
              ) : (
                <input
                  id={`ctx-prop-${f.name}`}
                  value={properties[f.name] ?? ''}
                  onChange={(e) => setProperties({ ...properties, [f.name]: e.target.value })}
                />
              )}
            </Field>
          ))}
        </div>
        <ErrorNotice error={evaluate.error} />
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={evaluate.isFetching}>
            Evaluate
          </button>
        </div>
      </form>
      {evaluate.data ? (
        <Card title={`Results (${total})`}>
          <div className="toolbar">
            <input
              type="search"
              aria-label="Filter results by name"
              placeholder="Filter by feature name"
              value={nameFilter}
              onChange={(e) => setNameFilter(e.target.value)}
            />
          </div>
          <div className="table-wrap">
            <table>
              <thead>
                <tr>
                  <th>Feature</th>
                  <th>Project</th>
                  <th>Enabled</th>
                  <th>Variant</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {features.map((f) => (
                  <Fragment key={f.name}>
                    <tr>
                      <td className="cell-name">{f.name}</td>
                      <td>{f.projectId}</td>
                      <td>{verdict(f.strategies.result === 'unknown' ? 'unknown' : f.isEnabled)}</td>
                      <td>{f.variant?.name ?? 'disabled'}</td>
                      <td>
                        <button
                          type="button"
                          className="btn btn-small"
                          aria-expanded={open === f.name}
                          onClick={() => setOpen(open === f.name ? null : f.name)}
                        >
                          {open === f.name ? 'Hide' : 'Explain'}
                        </button>
                      </td>
                    </tr>
                    {open === f.name ? (
                      <tr>
                        <td colSpan={5}>
                          <PlaygroundExplanation feature={f as PlaygroundFeature} />
                        </td>
                      </tr>
                    ) : null}
                  </Fragment>
                ))}
              </tbody>
            </table>
          </div>
          <div className="pager">
            <span className="muted">
              {total === 0
                ? 'No results'
                : `${offset + 1}–${Math.min(offset + PLAYGROUND_PAGE, total)} of ${total}`}
            </span>
            <div className="row">
              <button
                type="button"
                className="btn btn-small"
                disabled={offset === 0}
                onClick={() => setPage({ query, offset: Math.max(0, offset - PLAYGROUND_PAGE) })}
              >
                Previous
              </button>
              <button
                type="button"
                className="btn btn-small"
                disabled={offset + PLAYGROUND_PAGE >= total}
                onClick={() => setPage({ query, offset: offset + PLAYGROUND_PAGE })}
              >
                Next
              </button>
            </div>
          </div>
        </Card>
      ) : null}
    </>
  );
}
