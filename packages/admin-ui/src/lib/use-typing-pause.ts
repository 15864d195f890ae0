import { useEffect, useRef } from 'react';

/** How many of the latest gaps between keystrokes tell the typist's rhythm. */
const RHYTHM = 4;

/**
 * How long typing must pause to count as a pause: twice the longest of the latest gaps between
 * keystrokes (a typist's rhythm with its jitter), within `min`…`max`; `max` before there is a rhythm.
 */
export function typingPause(gaps: readonly number[], min: number, max: number): number {
  if (gaps.length === 0) return max;
  return Math.round(Math.min(max, Math.max(min, 2 * Math.max(...gaps))));
}

/**
 * Calls `onPause(value)` once `value` has stopped changing for a pause in typing (`typingPause`): what
 * a search box sends, so a word typed at speed is one request, sent as soon after its last keystroke
 * as the typist's own rhythm allows. The call is made from the timer, not from a render, so what it
 * starts (a request) need not wait for React. The first value is not a change.
 */
export function useTypingPause<T>(
  value: T,
  onPause: (value: T) => void,
  { min, max }: { min: number; max: number },
): void {
  const latest = useRef(onPause);
  latest.current = onPause;
  const typing = useRef<{ last: number | null; gaps: number[] }>({ last: null, gaps: [] });
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const now = performance.now();
    const state = typing.current;
    // A gap longer than the longest pause was itself a pause: not part of the rhythm.
    if (state.last !== null && now - state.last <= max)
      state.gaps = [...state.gaps, now - state.last].slice(-RHYTHM);
    state.last = now;
    const timer = setTimeout(() => latest.current(value), typingPause(state.gaps, min, max));
    return () => clearTimeout(timer);
  }, [value, min, max]);
}
