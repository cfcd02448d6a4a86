/**
 * Races each step of reading a request body against its silence: when no bytes arrive for
 * `idleMs` while a step waits for them, the step fails with `timedOut()`. Time the server spends
 * on what it has read (between steps) does not count. Stop it when the body has been read.
 */
export function bodyIdleGuard(raw: NodeJS.ReadableStream, idleMs: number, timedOut: () => Error) {
  let timer: NodeJS.Timeout | undefined;
  let fail: (error: Error) => void = () => {};
  const stalled = new Promise<never>((_resolve, reject) => {
    fail = reject;
  });
  stalled.catch(() => {});
  let waiting = false;
  const arm = () => {
    clearTimeout(timer);
    if (waiting) timer = setTimeout(() => fail(timedOut()), idleMs);
  };
  raw.on('data', arm);
  return {
    async within<T>(step: Promise<T>): Promise<T> {
      waiting = true;
      arm();
      try {
        return await Promise.race([step, stalled]);
      } finally {
        waiting = false;
        clearTimeout(timer);
      }
    },
    stop(): void {
      clearTimeout(timer);
      raw.off('data', arm);
    },
  };
}
