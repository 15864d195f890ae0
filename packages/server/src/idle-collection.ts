import { performance } from 'node:perf_hooks';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Logger } from '@flagstaff/core';

// V8 collects its old generation when it nears a limit it sets from the live size, not when the
// process goes quiet: after a burst of work at 50,000 features (a cold payload build, the project
// list, the playground over every feature) the heap kept ~120 MB of garbage for as long as nothing
// else ran, measured flat over 90 s of idling. The standalone server owns its process, so once the
// event loop has been quiet for a while after the heap grew, it runs one full collection.

export interface IdleCollectionOptions {
  /** How often the process is looked at (default 5 s). */
  checkEveryMs?: number;
  /** At most this share of that time spent in the event loop counts as quiet (default 5 %). */
  quietUtilization?: number;
  /** Growth of the committed heap since the last full collection that makes one worthwhile (default 32 MB). */
  growthBytes?: number;
}

/** What the collector reads and does; the defaults are the process's own. */
export interface IdleCollectionProbes {
  /** The heap V8 has committed, in bytes. */
  committed(): number;
  /** The event loop's utilization (0–1) since the previous call. */
  utilization(): number;
  /** A full, blocking collection. */
  collect(): void;
}

/** V8's full collection, exposed at run time (as Jest does for --logHeapUsage); null where refused. */
function fullCollection(): (() => void) | null {
  const exposed = (globalThis as { gc?: unknown }).gc;
  let gc: unknown = exposed;
  if (typeof gc !== 'function')
    try {
      setFlagsFromString('--expose-gc');
      gc = runInNewContext('gc');
    } catch {
      return null;
    }
  if (typeof gc !== 'function') return null;
  const full = gc as () => void;
  // The second pass finds the pages the first left nearly empty and gives them back.
  return () => {
    full();
    full();
  };
}

/** The probes of this process: its heap, its event loop, V8's full collection (null when refused). */
export function processProbes(): IdleCollectionProbes | null {
  const collect = fullCollection();
  if (!collect) return null;
  let last = performance.eventLoopUtilization();
  return {
    committed: () => getHeapStatistics().total_heap_size,
    utilization() {
      const now = performance.eventLoopUtilization();
      const since = performance.eventLoopUtilization(now, last);
      last = now;
      return since.utilization;
    },
    collect,
  };
}

/**
 * Starts looking every `checkEveryMs`: when the event loop was quiet since the last look and the heap
 * grew by `growthBytes` since the last full collection, runs one. Returns a stop function.
 */
export function startIdleCollection(
  logger: Logger,
  options: IdleCollectionOptions = {},
  probes: IdleCollectionProbes | null = processProbes(),
): () => void {
  if (!probes) {
    logger.info('idle collection is off: V8 did not expose a full collection');
    return () => {};
  }
  const quiet = options.quietUtilization ?? 0.05;
  const growth = options.growthBytes ?? 32 * 1024 * 1024;
  let baseline = probes.committed();
  probes.utilization();
  const timer = setInterval(() => {
    const busy = probes.utilization() > quiet;
    const committed = probes.committed();
    if (committed < baseline) baseline = committed;
    if (busy || committed - baseline < growth) return;
    const started = performance.now();
    probes.collect();
    baseline = probes.committed();
    // The collection itself is not the next look's activity.
    probes.utilization();
    logger.info('collected garbage while idle', {
      ms: Math.round(performance.now() - started),
      heapBeforeMb: Math.round(committed / 1e6),
      heapAfterMb: Math.round(baseline / 1e6),
    });
  }, options.checkEveryMs ?? 5000);
  timer.unref();
  return () => clearInterval(timer);
}
