import { ApiError } from '../../api/errors';

const unprefix = (path: string) => (path === 'payload' ? '' : path.replace(/^payload\./, ''));
const unprefixQuoted = (message: string) => message.replace(/"payload\./g, '"');

/**
 * The draft route names a payload's properties `payload.…` (`payload.variants[0].name`); the
 * dialogs place errors by the direct route's names (`variants[0].name`). The same answer, renamed,
 * so a refused draft shows its problems beside the fields as a refused direct save does.
 */
export function asDirectError(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  const body = error.body;
  let renamed = body;
  if (typeof body === 'object' && body !== null && 'details' in body && Array.isArray(body.details))
    renamed = {
      ...body,
      details: body.details.map((d: unknown) =>
        typeof d === 'object' && d !== null
          ? {
              ...d,
              ...('path' in d && typeof d.path === 'string' ? { path: unprefix(d.path) } : {}),
              ...('message' in d && typeof d.message === 'string'
                ? { message: unprefixQuoted(d.message) }
                : {}),
            }
          : d,
      ),
    };
  return new ApiError(error.status, unprefixQuoted(error.message), error.errorName, renamed);
}
