import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PurgeRequest {
  method: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A stand-in for Varnish and a CDN's purge hook on loopback: it answers each request with the
 * next status it is given (200 once they run out) and keeps what it was sent.
 */
export async function startPurgeRecorder() {
  const requests: PurgeRequest[] = [];
  const statuses: number[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({ method: request.method ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(statuses.shift() ?? 200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    /** The next answers, in order (a 503 makes a purge fail). */
    answerNext(...codes: number[]) {
      statuses.push(...codes);
    },
    /** The tags of each PURGE received since the last call, and forgets them. */
    takePurges(): string[][] {
      const taken = requests.splice(0).filter((request) => request.method === 'PURGE');
      return taken.map((request) => String(request.headers['xkey-purge'] ?? '').split(' ').filter(Boolean).sort());
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type PurgeRecorder = Awaited<ReturnType<typeof startPurgeRecorder>>;
