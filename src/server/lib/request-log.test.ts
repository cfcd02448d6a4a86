import Fastify from 'fastify';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { OneLinePerRequest, redactUrl } from './request-log';

/** The lines a server logging at `level` writes for one request to `url`. */
async function linesFor(level: string, url: string): Promise<Array<Record<string, unknown>>> {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const app = Fastify({ logger: { level, stream }, logController: new OneLinePerRequest() });
  app.get('/reset-password', async () => ({ ok: true }));
  await app.inject({ url });
  await app.close();
  return lines.filter((line) => line.url !== undefined);
}

describe('request log lines', () => {
  it('never carry a reset token from the address', () => {
    expect(redactUrl('/reset-password?token=abc123-_XYZ')).toBe('/reset-password?token=[redacted]');
    expect(redactUrl('/reset-password?utm=mail&token=abc&x=1')).toBe('/reset-password?utm=mail&token=[redacted]&x=1');
    expect(redactUrl('/api/products?search=token')).toBe('/api/products?search=token');
    expect(redactUrl('/api/products')).toBe('/api/products');
  });

  it('are one line a request at info, and a line as it starts too at debug, neither with the token', async () => {
    const atInfo = await linesFor('info', '/reset-password?token=secret-1');
    expect(atInfo.map((line) => [line.msg, line.url, line.status])).toEqual([['request', '/reset-password?token=[redacted]', 200]]);
    const atDebug = await linesFor('debug', '/reset-password?token=secret-2');
    expect(atDebug.map((line) => [line.msg, line.url])).toEqual([
      ['request started', '/reset-password?token=[redacted]'],
      ['request', '/reset-password?token=[redacted]'],
    ]);
    expect(JSON.stringify([...atInfo, ...atDebug])).not.toContain('secret');
  });
});
