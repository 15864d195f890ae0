// The Node implementation of the outbound HTTP port: node:http(s) with a lookup that checks every
// resolved address against the outbound policy and hands the connection exactly those addresses,
// so a name that resolves differently between a check and the connection (DNS rebinding) gains
// nothing. Each new connection runs the lookup; redirects are never followed (node:http does not).
import { promises as dns, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { FlagstaffError } from '../errors.js';
import type { HttpClient } from '../ports/runtime-ports.js';
import { BLOCKED, type OutboundPolicy, parseIp } from '../services/integrations/outbound-policy.js';

const blocked = (why: string): FlagstaffError => new FlagstaffError('FORBIDDEN', `${BLOCKED}: ${why}`);

/** How long saving an addon waits for its host name to resolve before leaving the check to delivery. */
const SAVE_CHECK_TIMEOUT_MS = 3_000;

const bare = (host: string): string => (host.startsWith('[') ? host.slice(1, -1) : host);

/** An outbound client that only reaches what `policy` allows; addons use it unless the host app passes its own. */
export function createNodeHttpClient(
  policy: OutboundPolicy,
  /** How names are resolved (default: the system resolver, as dns.lookup); tests play DNS rebinding with it. */
  resolve: (name: string) => Promise<LookupAddress[]> = (name) =>
    dns.lookup(name, { all: true, verbatim: true }),
): HttpClient {
  /** Every address of `host`, each checked; throws when any is refused (a mixed answer is suspect). */
  async function resolveChecked(host: string): Promise<LookupAddress[]> {
    const name = bare(host);
    const literal = parseIp(name);
    const addresses: LookupAddress[] = literal
      ? [{ address: name, family: literal.v4 ? 4 : 6 }]
      : await resolve(name);
    for (const { address } of addresses) {
      const why = policy.refusal(address, host);
      if (why) throw blocked(why);
    }
    return addresses;
  }

  const lookup: LookupFunction = (hostname, options, callback) => {
    resolveChecked(hostname).then(
      (addresses) => {
        const usable = options.family ? addresses.filter((a) => a.family === options.family) : addresses;
        const first = usable[0];
        if (options.all) callback(null, usable);
        else if (first) callback(null, first.address, first.family);
        else
          callback(
            Object.assign(new Error(`no IPv${options.family} address for ${hostname}`), {
              code: 'ENOTFOUND',
            }),
            '',
            0,
          );
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
  // Keep-alive pools connections per origin; every new connection goes through `lookup` again.
  const agents = {
    'http:': new HttpAgent({ keepAlive: true, lookup }),
    'https:': new HttpsAgent({ keepAlive: true, lookup }),
  };

  return {
    async post(url, init) {
      const target = new URL(url);
      if (target.protocol !== 'http:' && target.protocol !== 'https:')
        throw blocked(`${target.protocol} URLs are not sent`);
      // Node connects to an IP literal without calling `lookup`: check it here.
      if (parseIp(bare(target.hostname))) await resolveChecked(target.hostname);
      const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
      return new Promise((resolve, reject) => {
        const request = send(
          target,
          {
            method: 'POST',
            headers: { ...init.headers, 'Content-Length': String(Buffer.byteLength(init.body)) },
            agent: agents[target.protocol as 'http:' | 'https:'],
            lookup,
            signal: AbortSignal.timeout(init.timeoutMs),
          },
          (response: IncomingMessage) => {
            // Only the status matters; the body is read and dropped so the connection can be reused.
            response.resume();
            response.on('error', () => {});
            resolve({ status: response.statusCode ?? 0 });
          },
        );
        request.on('error', reject);
        request.end(init.body);
      });
    },

    async refusal(url) {
      let host: string;
      try {
        host = new URL(url).hostname;
      } catch {
        return null;
      }
      // Saving an addon must not hang on a slow resolver: past this, the answer is "not known".
      let timer: ReturnType<typeof setTimeout> | undefined;
      const slow = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, SAVE_CHECK_TIMEOUT_MS);
      });
      try {
        await Promise.race([resolveChecked(host), slow]);
        return null;
      } catch (error) {
        // A name that does not resolve (yet) is not known to be refused; delivery checks again.
        return error instanceof FlagstaffError ? error.message : null;
      } finally {
        clearTimeout(timer);
      }
    },

    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}
