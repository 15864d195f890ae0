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

/** Outbound HTTP for addons; the host app may wrap it (proxies, timeouts). */
export interface HttpClient {
  post(
    url: string,
    init: { headers: Record<string, string>; body: string; timeoutMs: number },
  ): Promise<{ status: number }>;
}

/** Structured logging. */
export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}
export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
