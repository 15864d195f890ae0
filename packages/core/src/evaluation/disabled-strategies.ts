/**
 * "All strategies disabled ⇒ off", the one place it is written: an enabled feature that has
 * strategies, every one of them disabled, is off. SDKs treat an enabled feature with no strategy as
 * on for everyone, so disabling the last strategy must not turn a feature on; a feature with no
 * strategy at all is on. The evaluator, the playground, the client API's payload and its delta
 * events all ask this function.
 */
export function offByDisabledStrategies<S>(
  strategies: readonly S[],
  isDisabled: (strategy: S) => boolean,
): boolean {
  if (strategies.length === 0) return false;
  for (const strategy of strategies) if (!isDisabled(strategy)) return false;
  return true;
}

/** Whether a stored or client-API strategy is disabled (anything but `disabled: true` is active). */
export const isDisabledStrategy = (strategy: { readonly disabled?: unknown }): boolean =>
  strategy.disabled === true;
