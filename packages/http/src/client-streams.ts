import {
  type Caller,
  type ClientFeaturesQuery,
  type DeltaAnswer,
  type Flagstaff,
  type Logger,
  ofrepAudience,
  type PreparedPayload,
} from '@flagstaff/core';
import { authenticationRequired, HttpError } from './errors.js';
import { type Frame, FrameQueue } from './stream-frame-queue.js';
import { createStreamTokenGuard } from './stream-token-guard.js';

/** Limits of `GET /api/client/streaming`, set on the handler options. */
export interface StreamingOptions {
  /** Open streams one handler serves at once; the next gets a 429 (default 1,000). */
  maxConnections?: number;
  /**
   * Open streams one API token (or one user) may hold at once; the next gets a 429 (default 250), so
   * one credential cannot take every slot.
   */
  maxPerToken?: number;
  /** Milliseconds between keep-alive comments (default 30,000); proxies close silent connections. */
  keepAliveMs?: number;
  /**
   * Bytes a stream may have waiting for a slow client (default 4 MiB, a few full hydrations): past
   * it the stream is dropped and the SDK reconnects with its Last-Event-ID, rather than the server
   * buffering without bound.
   */
  maxQueuedBytes?: number;
}

const encoder = new TextEncoder();
const KEEP_ALIVE = encoder.encode(': keep-alive\n\n');

const FRAME_END = encoder.encode('\n\n');

// The payload is one line of JSON (no raw newlines), so it is one `data:` line. Every stream of a
// scope shares the payload's bytes (tens of MB for a hydration at 50,000 features): a copy per
// frame would double what a change costs in memory.
const frameOf = (event: string, payload: PreparedPayload, revision: number): Frame => [
  encoder.encode(`event: ${event}\nid: ${revision}\ndata: `),
  ...payload.pieces,
  FRAME_END,
];

const emptyFrame = (event: string, revision: number) =>
  encoder.encode(`event: ${event}\nid: ${revision}\ndata: {"events":[]}\n\n`);

/**
 * What a stream speaks: Unleash's `unleash-connected`/`unleash-updated` frames with the changes, or
 * OFREP's notice (ADR 0008) that the configuration in the token's scope changed, without the change.
 */
export type StreamProtocol = 'unleash' | 'ofrep';

// Sent at once so the answer's headers go out (and EventSource opens) before any change happens.
const OFREP_OPENED = encoder.encode(': connected\n\n');

const refetchFrame = (revision: number) =>
  encoder.encode(
    `event: message\nid: ${revision}\ndata: {"type":"refetchEvaluation","etag":"${revision}"}\n\n`,
  );

/** The frame a delta answer becomes on a stream of that protocol; null when there is nothing to say. */
function frameFor(protocol: StreamProtocol, answer: DeltaAnswer, first: boolean): Frame | null {
  if (protocol === 'ofrep') {
    if (first)
      return answer.kind === 'events' && answer.changed ? refetchFrame(answer.revision) : OFREP_OPENED;
    return answer.kind === 'events' && answer.changed ? refetchFrame(answer.revision) : null;
  }
  const event = first ? 'unleash-connected' : 'unleash-updated';
  return answer.kind === 'unchanged'
    ? emptyFrame(event, answer.revision)
    : frameOf(event, answer.payload, answer.revision);
}

/** One open stream: its caller and scope, the revision it has, and its queue of frames. */
class Connection extends FrameQueue {
  /** The revision the client has; changes after it are what it gets next. */
  sent: number;
  /** An update is being prepared; another revision meanwhile is handled right after it. */
  busy = false;
  again = false;

  constructor(
    readonly caller: Caller,
    /** Whose share of the streams this one counts against (a token or a user); null: nobody's. */
    readonly holder: string | null,
    readonly query: ClientFeaturesQuery,
    readonly protocol: StreamProtocol,
    sent: number,
    maxQueuedBytes: number,
    onEnd: (connection: Connection) => void,
  ) {
    super(maxQueuedBytes, () => onEnd(this));
    this.sent = sent;
  }
}

/** The share a caller's streams count against: its API token, or its user. */
function holderOf(caller: Caller): string | null {
  const { principal } = caller;
  if (principal.kind === 'api-token') return `token:${principal.secretHash}`;
  if (principal.kind === 'user') return `user:${principal.userId}`;
  return null;
}

/** OFREP streams serve frontend tokens too: their changes are read as the frontend API's. */
const streamAudience = (protocol: StreamProtocol, caller: Caller): 'client' | 'frontend' =>
  protocol === 'ofrep' ? ofrepAudience(caller.principal) : 'client';

const audienceOf = (connection: Connection) => streamAudience(connection.protocol, connection.caller);

const tokenHashOf = (caller: Caller): string | null =>
  caller.principal.kind === 'api-token' ? caller.principal.secretHash : null;

/**
 * The server-sent-event streams of one handler: a connection limit overall and per token,
 * keep-alive comments, one subscription to configuration changes shared by every stream,
 * per-stream bounded queues, and streams that end once their token is deleted or expires.
 */
export function createClientStreams(flagstaff: Flagstaff, options: StreamingOptions, logger: Logger) {
  const maxConnections = options.maxConnections ?? 1000;
  const maxPerToken = options.maxPerToken ?? 250;
  const keepAliveMs = options.keepAliveMs ?? 30_000;
  const maxQueuedBytes = options.maxQueuedBytes ?? 4 * 1024 * 1024;
  const connections = new Set<Connection>();
  const perHolder = new Map<string, number>();
  const guard = createStreamTokenGuard(
    flagstaff.access,
    (hash) => {
      for (const connection of [...connections])
        if (tokenHashOf(connection.caller) === hash) connection.end();
    },
    logger,
  );
  let unwatch: (() => void) | null = null;
  let keepAlive: ReturnType<typeof setInterval> | null = null;
  let closed = false;

  function stopWhenIdle(): void {
    if (connections.size > 0) return;
    unwatch?.();
    unwatch = null;
    if (keepAlive) clearInterval(keepAlive);
    keepAlive = null;
  }

  const release = (holder: string): void => {
    const left = (perHolder.get(holder) ?? 1) - 1;
    if (left > 0) perHolder.set(holder, left);
    else perHolder.delete(holder);
  };

  const removed = (connection: Connection) => {
    connections.delete(connection);
    if (connection.holder !== null) release(connection.holder);
    const hash = tokenHashOf(connection.caller);
    if (hash !== null) guard.remove(hash);
    stopWhenIdle();
  };

  async function update(connection: Connection): Promise<void> {
    if (connection.busy) {
      connection.again = true;
      return;
    }
    connection.busy = true;
    try {
      do {
        connection.again = false;
        const answer = await flagstaff.client.delta(
          connection.caller,
          connection.query,
          connection.sent,
          audienceOf(connection),
        );
        if (answer.kind === 'unchanged' || connection.isEnded) continue;
        const frame = frameFor(connection.protocol, answer, false);
        if (frame && !connection.push(frame)) {
          logger.warn('dropped a stream whose client fell behind', { revision: answer.revision });
          return;
        }
        connection.sent = answer.revision;
      } while (connection.again && !connection.isEnded);
    } catch (error) {
      logger.error('could not send a change to a stream', { error: String(error) });
      connection.end();
    } finally {
      connection.busy = false;
    }
  }

  function onRevision(): void {
    for (const connection of connections) void update(connection);
  }

  function start(): void {
    unwatch ??= flagstaff.client.watch(onRevision, close);
    keepAlive ??= setInterval(() => {
      for (const connection of connections) connection.push(KEEP_ALIVE);
      guard.recheck();
    }, keepAliveMs);
    keepAlive.unref?.();
  }

  function close(): void {
    closed = true;
    for (const connection of [...connections]) connection.end();
    stopWhenIdle();
  }

  return {
    /**
     * Opens a stream: first `unleash-connected` with a hydration (or, with a Last-Event-ID still in
     * the change window, the changes since), then `unleash-updated` per change. Throws a 429 past
     * the connection limit or the caller's share of it, a 401 when its token went meanwhile.
     */
    async open(
      caller: Caller,
      query: ClientFeaturesQuery,
      lastEventId: number | null,
      protocol: StreamProtocol = 'unleash',
    ): Promise<AsyncIterable<Uint8Array>> {
      if (closed) throw new HttpError(503, 'ServiceUnavailableError', 'The server is shutting down.');
      if (connections.size >= maxConnections)
        throw new HttpError(
          429,
          'TooManyRequestsError',
          `This server already serves ${maxConnections} streams, its limit. Poll /api/client/features instead, or retry later.`,
        );
      const holder = holderOf(caller);
      if (holder !== null && (perHolder.get(holder) ?? 0) >= maxPerToken)
        throw new HttpError(
          429,
          'TooManyRequestsError',
          `This ${caller.principal.kind === 'user' ? 'user' : 'token'} already holds ${maxPerToken} streams on this server, its limit. Give each application its own token, poll /api/client/features instead, or retry later.`,
        );
      // Reserved before the first await, so streams opening at once cannot all slip under the limit.
      if (holder !== null) perHolder.set(holder, (perHolder.get(holder) ?? 0) + 1);
      const hash = tokenHashOf(caller);
      let answer: DeltaAnswer;
      try {
        answer = await flagstaff.client.delta(caller, query, lastEventId, streamAudience(protocol, caller));
        // The token may have gone while the first frame was prepared: then the stream never opens.
        if (hash !== null && !(await guard.add(hash))) throw authenticationRequired(true);
      } catch (error) {
        if (holder !== null) release(holder);
        throw error;
      }
      // Shut down while the first frame was prepared: the stream would never be ended.
      if (closed) {
        if (holder !== null) release(holder);
        if (hash !== null) guard.remove(hash);
        throw new HttpError(503, 'ServiceUnavailableError', 'The server is shutting down.');
      }
      const connection = new Connection(
        caller,
        holder,
        query,
        protocol,
        answer.revision,
        maxQueuedBytes,
        removed,
      );
      connections.add(connection);
      // An OFREP provider fetched just before connecting: only a resumed stream may have missed a change.
      const fresh = protocol === 'ofrep' && lastEventId === null;
      connection.push((fresh ? null : frameFor(protocol, answer, true)) ?? OFREP_OPENED);
      start();
      // A change committed while the first frame was prepared must not be missed.
      void update(connection);
      return connection;
    },
    /** Open streams right now. */
    get size(): number {
      return connections.size;
    },
    /** Ends every stream (server shutdown); later opens get a 503. */
    close,
  };
}

export type ClientStreams = ReturnType<typeof createClientStreams>;
