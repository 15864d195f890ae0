import { useSyncExternalStore } from 'react';
import { takeEarlyAnswer } from '../app/early-answers';

/** The server could not be reached at all (no answer, not an error answer). */
export class NetworkError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('Can’t reach the server. Check your connection, then retry.', options);
    this.name = 'NetworkError';
  }
}

// Whether the last request found the server: every API call reports here, so one banner can say so.
let reachable = true;
const listeners = new Set<() => void>();

function setReachable(value: boolean): void {
  if (value === reachable) return;
  reachable = value;
  for (const listener of listeners) listener();
}

/** True while the last API request got no answer from the server. */
export const useServerUnreachable = (): boolean =>
  useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => !reachable,
  );

/**
 * `fetch` for the API client: a request the server never answered becomes a NetworkError (instead of
 * the browser's bare "Failed to fetch") and marks the server unreachable; any answer marks it back.
 * A request the page asked for before the app's code ran (`early-answers.ts`) takes that answer.
 */
export async function trackedFetch(request: Request): Promise<Response> {
  try {
    const response = await (takeEarlyAnswer(request) ?? fetch(request));
    setReachable(true);
    return response;
  } catch (error) {
    // Aborts are the UI cancelling a request it no longer needs, not a lost server.
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    setReachable(false);
    throw new NetworkError({ cause: error });
  }
}

/** A lazily loaded part of the app failed to download (the server is gone, or was updated). */
export const isChunkLoadError = (error: unknown): boolean =>
  error instanceof Error &&
  /dynamically imported module|Importing a module script failed|Failed to load module script|Unable to preload CSS/i.test(
    error.message,
  );
