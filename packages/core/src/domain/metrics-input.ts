import { type ClientMetricsInput, clientMetricsSchema } from './metrics.js';
import { parseWith } from './parse.js';

type Counts = ClientMetricsInput['bucket']['toggles'][string];

/** A plain object, as JSON.parse makes them; anything else goes to the schema. */
const isObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype;
};

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

/** Names an object literal cannot take as plain keys; such bodies go to the schema. */
const plainKey = (name: string): boolean => name !== '__proto__';

const optionalString = (value: unknown): value is string | undefined =>
  value === undefined || typeof value === 'string';

/** One feature's counts when they are exactly what the schema accepts, else null. */
function countsOf(value: unknown): Counts | null {
  if (!isObject(value)) return null;
  const { yes = 0, no = 0, variants } = value;
  if (!isCount(yes) || !isCount(no)) return null;
  if (variants === undefined) return { yes, no };
  if (!isObject(variants)) return null;
  const copy: Record<string, number> = {};
  for (const name of Object.keys(variants)) {
    const n = variants[name];
    if (!isCount(n) || !plainKey(name)) return null;
    copy[name] = n;
  }
  return { yes, no, variants: copy };
}

/** The body when every part is what the schema accepts; null sends it to the schema for the error. */
function fastRead(input: unknown): ClientMetricsInput | null {
  if (!isObject(input)) return null;
  const { appName, instanceId, environment, bucket } = input;
  if (typeof appName !== 'string' || appName.length === 0) return null;
  if (!optionalString(instanceId) || !optionalString(environment) || !isObject(bucket)) return null;
  const { start, stop, toggles } = bucket;
  if (typeof start !== 'string' || !(stop == null || typeof stop === 'string') || !isObject(toggles))
    return null;
  const out: ClientMetricsInput['bucket']['toggles'] = {};
  for (const name of Object.keys(toggles)) {
    const counts = countsOf(toggles[name]);
    if (counts === null || !plainKey(name)) return null;
    out[name] = counts;
  }
  return {
    appName,
    ...(instanceId === undefined ? {} : { instanceId }),
    ...(environment === undefined ? {} : { environment }),
    bucket: { start, ...(stop === undefined ? {} : { stop }), toggles: out },
  };
}

/**
 * `POST /api/client/metrics` bodies, read at volume: a hand-written check of the common, valid body
 * (about 5× cheaper than the schema on a 50-feature bucket), and the schema itself for anything it
 * does not accept, so errors name the property exactly as every other route's do. The check accepts
 * only what the schema accepts and gives the same result (a property test holds them together).
 */
export const readClientMetrics = (input: unknown): ClientMetricsInput =>
  fastRead(input) ?? parseWith(clientMetricsSchema, input);
