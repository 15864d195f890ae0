import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got, with what it answered. */
export interface ReceivedDelivery {
  eventId: number;
  featureName: string | null;
  attempt: number;
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}

/**
 * A webhook receiver on an ephemeral loopback port. `answer` picks each response's status (default
 * 200) and `delayMs` holds each response that long, so tests can play a receiver that is down,
 * flaky or slow. `delivered` lists the requests answered 2xx.
 */
export async function startWebhookReceiver(options: { delayMs?: number } = {}) {
  const received: ReceivedDelivery[] = [];
  let answer: (request: { eventId: number; attempt: number; index: number }) => number = () => 200;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const parsed = JSON.parse(body) as { id?: number; featureName?: string | null };
      const eventId = Number(req.headers['flagstaff-event-id'] ?? parsed.id);
      const attempt = Number(req.headers['flagstaff-delivery-attempt'] ?? 1);
      const status = answer({ eventId, attempt, index: received.length });
      received.push({
        eventId,
        featureName: parsed.featureName ?? null,
        attempt,
        headers: req.headers,
        body,
        status,
      });
      const respond = () => {
        res.statusCode = status;
        res.end();
      };
      if (options.delayMs) setTimeout(respond, options.delayMs);
      else respond();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    /** Requests answered 2xx, in the order they arrived. */
    delivered: () => received.filter((r) => r.status >= 200 && r.status < 300),
    answerWith(fn: typeof answer): void {
      answer = fn;
    },
    async close(): Promise<void> {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
