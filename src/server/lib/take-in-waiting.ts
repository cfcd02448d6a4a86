import type net from 'node:net';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Before a stopping server closes its listener: lets the event loop accept the connections the
 * kernel has already completed and read their first request. `server.close()` drops every
 * connection with no request under way, and a connection taken in a moment ago has none yet, so
 * without this a shopper who connected just before SIGTERM (or while a busy turn held the loop)
 * would see the connection reset instead of an answer. Returns after a turn with no new
 * connection, or after `maxTurns`, so a steady stream of arrivals cannot hold the stop up.
 */
export async function takeInWaitingConnections(server: net.Server, maxTurns = 50): Promise<void> {
  let accepted = 0;
  const count = () => (accepted += 1);
  server.on('connection', count);
  try {
    for (let turn = 0; turn < maxTurns; turn += 1) {
      const before = accepted;
      // One turn accepts what waits at the listener; the next reads what those connections sent.
      await nextTurn();
      await nextTurn();
      if (accepted === before) return;
    }
  } finally {
    server.off('connection', count);
  }
}

