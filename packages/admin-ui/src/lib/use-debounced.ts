import { useEffect, useState } from 'react';

/**
 * `value`, once it has stopped changing for `ms`: what a search box sends, so that typing a word is
 * one request when the typing pauses rather than one per keystroke.
 */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    if (Object.is(value, settled)) return;
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, settled, ms]);
  return settled;
}
