import { Writable } from 'node:stream';
import { logDestination } from './log-destination';

const levelNames: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const levelColours: Record<number, string> = { 40: '\u001b[33m', 50: '\u001b[31m', 60: '\u001b[31m' };
/** What every line has, or what the readable line already says another way. */
const understood = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'err']);

/**
 * One JSON log line as a person reads it in a terminal: the local time, the level and the
 * message, then what else the line carries as key=value. A request reads `GET /shop 200 3 ms`; an
 * error adds its message and stack below. A line that is not JSON is passed on as it is.
 */
export function readableLine(json: string, colour = false): string {
  let line: Record<string, unknown>;
  try {
    line = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  if (!line || typeof line !== 'object') return `${json}\n`;
  const level = typeof line.level === 'number' ? line.level : 30;
  const time = new Date(typeof line.time === 'number' ? line.time : Date.now());
  const clock = [time.getHours(), time.getMinutes(), time.getSeconds()].map((part) => String(part).padStart(2, '0')).join(':');
  let label = (levelNames[level] ?? String(level)).padEnd(5);
  if (colour && levelColours[level]) label = `${levelColours[level]}${label}\u001b[0m`;

  const shown = new Set(understood);
  let text: string;
  if ((line.msg === 'request' || line.msg === 'request failed') && typeof line.method === 'string' && typeof line.url === 'string') {
    text = `${printable(line.method)} ${printable(line.url)} ${String(line.status ?? '')} ${formatMs(line.ms)}`;
    if (line.msg === 'request failed') text += ' failed';
    for (const key of ['method', 'url', 'status', 'ms', 'ip']) shown.add(key);
  } else {
    text = typeof line.msg === 'string' ? printable(line.msg) : '';
  }
  const extras = Object.entries(line)
    .filter(([key]) => !shown.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' ? quoted(value) : JSON.stringify(value)}`);
  let out = `${clock} ${label} ${[text, ...extras].filter(Boolean).join(' ')}\n`;
  const error = line.err as { message?: unknown; stack?: unknown } | undefined;
  if (error && typeof error === 'object') {
    const detail = typeof error.stack === 'string' ? error.stack : typeof error.message === 'string' ? error.message : JSON.stringify(error);
    out += `${printable(detail).replace(/^/gm, '    ')}\n`;
  }
  return out;
}

function formatMs(ms: unknown): string {
  if (typeof ms !== 'number') return '';
  return `${ms < 10 ? Math.round(ms * 10) / 10 : Math.round(ms)} ms`;
}

/** Printable text only: a control character (a terminal's escape sequences come from them) is written as its code. */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function quoted(value: string): string {
  // eslint-disable-next-line no-control-regex -- as above
  return /^[^\s"=\u0000-\u001f\u007f-\u009f]+$/.test(value) ? value : JSON.stringify(value);
}

/**
 * A pino destination that writes readable lines to the terminal. pino hands it one JSON line per
 * write; the lines go out through the same kind of writer as the JSON log (lib/logger.ts): without
 * blocking, so a terminal that stops reading (Ctrl-S, a slow connection) never holds a request.
 * The formatting costs nothing when the output is not a terminal: this stream is not used then.
 */
export function readableDestination(target: { write(text: string): unknown } = logDestination(), colour = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR): Writable {
  return new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, done) {
      const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      const lines = text.split('\n').filter(Boolean);
      target.write(lines.map((line) => readableLine(line, colour)).join(''));
      done();
    },
  });
}
