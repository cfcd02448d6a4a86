import type http from 'node:http';
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

/**
 * Counts connections that have not yet brought their first request: a proxy's connection made a
 * moment before the shop stopped listening, whose request is on its way.
 */
export function watchFreshConnections(server: http.Server): () => number {
  const fresh = new Set<net.Socket>();
  server.on('connection', (socket: net.Socket) => {
    fresh.add(socket);
    socket.once('close', () => fresh.delete(socket));
  });
  server.on('request', (request: http.IncomingMessage) => fresh.delete(request.socket));
  return () => fresh.size;
}

/**
 * Closes the server in two steps. Closing stops accepting at once, but Node (and Fastify) also
 * drop every connection with no request under way, and a connection accepted a moment earlier
 * has none yet: the request a proxy already sent on it would be lost, and a proxy may not send a
 * POST again. So idle connections are kept until each fresh one has brought its request (whose
 * answer closes it), or for `withinMs` at most, and only then dropped.
 */
export async function closeKeepingFreshConnections(server: http.Server, close: () => Promise<void>, freshConnections: () => number, withinMs = 2000): Promise<void> {
  const dropIdle = server.closeIdleConnections.bind(server);
  server.closeIdleConnections = () => {};
  const closed = close();
  try {
    const deadline = Date.now() + withinMs;
    while (freshConnections() > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  } finally {
    server.closeIdleConnections = dropIdle;
    dropIdle();
  }
  await closed;
}
