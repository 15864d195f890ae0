/** Runs `close` on the first SIGTERM or SIGINT, then exits; a second signal exits at once. */
export function handleSignals(
  close: () => Promise<void>,
  proc: Pick<NodeJS.Process, 'on' | 'exit'>,
  logger: { error(msg: string, fields?: Record<string, unknown>): void },
): void {
  let received = false;
  const onSignal = () => {
    // A second signal means "stop waiting".
    if (received) return proc.exit(1);
    received = true;
    close().then(
      () => proc.exit(0),
      (error: unknown) => {
        logger.error('shutdown failed', { error: String(error) });
        proc.exit(1);
      },
    );
  };
  proc.on('SIGTERM', onSignal);
  proc.on('SIGINT', onSignal);
}
