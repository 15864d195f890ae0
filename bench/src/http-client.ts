// A minimal keep-alive HTTP client for the HTTP bench. Node 20's fetch (undici) costs ≈ 0.6 ms per
// sequential call on this machine before the server does any work, which would swamp what the bench
// measures; node:http over one kept-alive socket costs ≈ 0.1 ms. The bench prints both floors.
import http from 'node:http';

export interface RawResponse {
  status: number;
  /** The body's bytes, as received (decoding and parsing are left to the caller). */
  body: Buffer;
}

export function createClient(base: string, headers: Record<string, string>) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(base);
  function request(method: string, path: string, body?: string): Promise<RawResponse> {
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          method,
          path,
          agent,
          headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }
  return { request, close: () => agent.destroy() };
}
