import { describe, expect, it } from 'vitest';
import { chooseLogDestination, logDestination } from './logger';
import { readableLine } from './readable-log';

const at = new Date(2026, 10, 27, 9, 5, 7).getTime();

describe('readable log lines', () => {
  it('write a request as method, path, status and time', () => {
    const json = JSON.stringify({ level: 30, time: at, pid: 1, hostname: 'h', reqId: 'req-1', msg: 'request', method: 'GET', url: '/shop', status: 200, ms: 3.2, ip: '127.0.0.1' });
    expect(readableLine(json)).toBe('09:05:07 INFO  GET /shop 200 3.2 ms\n');
    const slow = JSON.stringify({ level: 30, time: at, msg: 'request', method: 'POST', url: '/api/orders', status: 201, ms: 412.6 });
    expect(readableLine(slow)).toBe('09:05:07 INFO  POST /api/orders 201 413 ms\n');
  });

  it('write other lines as their message and fields, and an error with its stack below', () => {
    expect(readableLine(JSON.stringify({ level: 40, time: at, msg: 'mail failed', to: 'kiri@example.nz', tries: 2 }))).toBe('09:05:07 WARN  mail failed to=kiri@example.nz tries=2\n');
    const failed = readableLine(JSON.stringify({ level: 50, time: at, msg: 'request failed', method: 'GET', url: '/x', status: 500, ms: 1, err: { message: 'boom', stack: 'Error: boom\n    at here' } }));
    expect(failed).toBe('09:05:07 ERROR GET /x 500 1 ms failed\n    Error: boom\n        at here\n');
    expect(readableLine('not json')).toBe('not json\n');
  });

  it('write control characters from what a visitor sent as codes, so they cannot steer the terminal', () => {
    const line = readableLine(JSON.stringify({ level: 30, time: at, msg: 'request', method: 'GET', url: '/shop?q=\u001b[2J', status: 200, ms: 1, note: 'a\u0007b' }));
    expect(line).toBe('09:05:07 INFO  GET /shop?q=\\u001b[2J 200 1 ms note="a\\u0007b"\n');
    expect([...line.slice(0, -1)].every((character) => character >= ' ')).toBe(true);
  });

  it('are chosen for a terminal only, unless NODE_ENV=production was said or LOG_FORMAT decides', () => {
    const json = logDestination().constructor;
    const readable = (format: 'auto' | 'readable' | 'json', terminal: boolean, production: boolean) => chooseLogDestination(format, { terminal, production }).constructor !== json;
    expect(readable('auto', true, false)).toBe(true);
    expect(readable('auto', false, false)).toBe(false);
    expect(readable('auto', true, true)).toBe(false);
    expect(readable('readable', false, true)).toBe(true);
    expect(readable('json', true, false)).toBe(false);
  });
});
