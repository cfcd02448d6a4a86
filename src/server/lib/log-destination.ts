import pino from 'pino';

/**
 * Where the shop's JSON log lines go: standard output, written without blocking. Each line is
 * handed to the operating system as soon as the previous write is done, so lines that come
 * together under load go out together, and a slow reader of the log (a pipe, a terminal) never
 * holds a request. What is still waiting is written out before the process exits. Should the
 * reader stop reading altogether, lines past 16 MB are dropped rather than kept.
 */
export function logDestination(fd = 1): pino.DestinationStream & { flushSync(): void } {
  const destination = pino.destination({ dest: fd, sync: false, minLength: 0, maxLength: 16 * 1024 * 1024 });
  process.once('exit', () => {
    try {
      destination.flushSync();
    } catch {
      // Nothing was written yet (the stream never opened): nothing to flush.
    }
  });
  return destination;
}
