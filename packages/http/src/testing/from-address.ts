import { request as httpRequest } from 'node:http';

export interface AddressedAnswer {
  status: number;
  retryAfter: string | undefined;
  // biome-ignore lint/suspicious/noExplicitAny: tests inspect response bodies freely
  body: any;
}

/**
 * One request over real loopback HTTP from a chosen source address: all of 127.0.0.0/8 reaches a
 * server on 127.0.0.1, so tests can act as many clients without trusting any forwarded header.
 */
export function requestFrom(
  base: string,
  method: string,
  path: string,
  options: { from: string; headers?: Record<string, string>; body?: unknown },
): Promise<AddressedAnswer> {
  const url = new URL(`${base}${path}`);
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string | number> = { ...options.headers };
  if (payload !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = Buffer.byteLength(payload);
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        localAddress: options.from,
        agent: false,
        headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const retryAfter = res.headers['retry-after'];
          let body: unknown = text;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {}
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
            body,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
