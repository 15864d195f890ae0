import { afterEach, describe, expect, it, vi } from 'vitest';
import { type IdleCollectionProbes, processProbes, startIdleCollection } from './idle-collection.js';

const MB = 1024 * 1024;
const logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };

/** A process whose heap and event-loop use the test sets; a collection brings the heap back to `live`. */
function fakeProcess(live: number) {
  const state = { committed: live, utilization: 0, collections: 0 };
  const probes: IdleCollectionProbes = {
    committed: () => state.committed,
    utilization: () => state.utilization,
    collect() {
      state.collections++;
      state.committed = live;
    },
  };
  return { state, probes };
}

afterEach(() => vi.useRealTimers());

describe('collecting garbage while the server is idle', () => {
  it('collects once the heap grew and the event loop went quiet, and not again until it grows', () => {
    vi.useFakeTimers();
    const { state, probes } = fakeProcess(100 * MB);
    const stop = startIdleCollection(logger, { checkEveryMs: 1000 }, probes);
    state.committed = 250 * MB;
    state.utilization = 0.6;
    vi.advanceTimersByTime(3000);
    expect(state.collections).toBe(0);
    state.utilization = 0.01;
    vi.advanceTimersByTime(1000);
    expect(state.collections).toBe(1);
    expect(state.committed).toBe(100 * MB);
    vi.advanceTimersByTime(10_000);
    expect(state.collections).toBe(1);
    state.committed = 120 * MB;
    vi.advanceTimersByTime(10_000);
    expect(state.collections).toBe(1);
    stop();
  });

  it('never collects after stop', () => {
    vi.useFakeTimers();
    const { state, probes } = fakeProcess(100 * MB);
    startIdleCollection(logger, { checkEveryMs: 1000 }, probes)();
    state.committed = 500 * MB;
    vi.advanceTimersByTime(10_000);
    expect(state.collections).toBe(0);
  });

  it("the process's own probes run a real full collection", () => {
    const probes = processProbes();
    expect(probes).not.toBeNull();
    // Large arrays live in V8's large-object space, which only a full collection frees.
    let garbage: number[][] | null = Array.from({ length: 4 }, () => new Array(1_000_000).fill(1.5));
    expect(garbage.length).toBe(4);
    garbage = null;
    const before = process.memoryUsage().heapUsed;
    probes!.collect();
    expect(process.memoryUsage().heapUsed).toBeLessThan(before - 20 * MB);
  });
});
