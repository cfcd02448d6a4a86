import pino from 'pino';
import type { AppConfig } from '../config';
import { logDestination } from './log-destination';
import { readableDestination } from './readable-log';

export { logDestination };

/**
 * Readable lines for a person at a terminal, JSON lines for everything else: a pipe, a file, a log
 * collector, and any process started with NODE_ENV=production. LOG_FORMAT=readable or json decides
 * instead of auto.
 */
export function chooseLogDestination(
  format: AppConfig['logFormat'],
  where: { terminal: boolean; production: boolean } = { terminal: Boolean(process.stdout.isTTY), production: false },
): pino.DestinationStream {
  const readable = format === 'readable' || (format === 'auto' && where.terminal && !where.production);
  return readable ? readableDestination() : logDestination();
}

/**
 * An error as pino writes it, less the values of a failed query: they may be a shopper's details
 * or a password's hash. The embedded database attaches them as `params`, and drizzle repeats them
 * in its message ("Failed query: ...\nparams: ..."), so both are taken out. Anything that is not
 * an object is written as it is.
 */
export function withoutQueryValues(error: unknown): unknown {
  if (!error || typeof error !== 'object') return error;
  const { params, ...written } = pino.stdSerializers.err(error as Error) as Record<string, unknown>;
  const values = (error as { params?: unknown }).params ?? params;
  if (Array.isArray(values) && values.length) {
    const listed = `\nparams: ${String(values)}`;
    for (const key of ['message', 'stack'] as const) {
      if (typeof written[key] === 'string') written[key] = (written[key] as string).split(listed).join('\nparams: [not logged]');
    }
  }
  return written;
}

/**
 * The logger options of the server: the request log (one line a request, lib/request-log.ts) and
 * what the modules log. No line carries a header, a body or a form: they log what they name, so
 * only the two headers that could ever be passed whole are redacted, by exact path. Wildcard
 * paths (`*.password`) would walk every line's object for nothing (decision 0022).
 */
export function loggerOptions(config: Pick<AppConfig, 'logLevel'>, stream: pino.DestinationStream = logDestination()) {
  return {
    level: config.logLevel,
    stream,
    redact: { paths: ['req.headers.cookie', 'req.headers.authorization'], censor: '[redacted]' },
    serializers: { err: withoutQueryValues as pino.SerializerFn },
  };
}
