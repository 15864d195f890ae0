/** Where "now" comes from; tests pass a fixed or stepping clock. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

/** Ids and secrets. Tests may pass a deterministic one. */
export interface IdGenerator {
  uuid(): string;
  /** `bytes` random bytes as lower-case hex. */
  randomHex(bytes: number): string;
}

/**
 * Outbound HTTP for addons; the host app may wrap it (proxies, timeouts). An implementation owns the
 * outbound policy's network half: it resolves names and connects only to addresses the policy allows,
 * and it never follows redirects (a 3xx is answered as the status).
 */
export interface HttpClient {
  post(
    url: string,
    init: { headers: Record<string, string>; body: string; timeoutMs: number },
  ): Promise<{ status: number }>;
  /**
   * Why the policy refuses `url` as things stand (its host is, or resolves to, a refused address),
   * or null; addons are checked with it when they are saved. Without it, only IP literals are.
   */
  refusal?(url: string): Promise<string | null>;
  /** Frees pooled connections (flagstaff.close calls it). */
  close?(): void;
}

/** Structured logging. */
export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}
export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
