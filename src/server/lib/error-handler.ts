import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ApiErrorBody } from '../../contracts/errors';
import { isDatabaseUnavailable } from '../db/unavailable';
import { AppError, TooManyRequests } from './errors';

export const databaseUnavailableMessage = 'The shop cannot reach its database just now. Please try again in a minute.';

/** Fastify's own 4xx errors, in words a shopper's browser can show. */
const friendlyFastifyMessages: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Send the request body as JSON (Content-Type: application/json).',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty; send a JSON object.',
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large.',
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request body length does not match its Content-Length.',
};

/**
 * The one error handler: validation failures become 400 with a message per field, typed service
 * errors pass through, other 4xx keep their status, and anything else is a 500 whose details go
 * to the log only (with the request id the shopper can quote).
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fieldErrors: Record<string, string> = {};
      for (const issue of error.validation) {
        if (issue.keyword === 'unrecognized_keys') {
          const keys = (issue.params as { keys?: string[] }).keys ?? [];
          for (const key of keys) fieldErrors[key] ??= `Unknown field: ${key}`;
          continue;
        }
        const field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.') || (error.validationContext ?? 'body');
        fieldErrors[field] ??= issue.message ?? 'This value is not valid';
      }
      const first = Object.values(fieldErrors)[0] ?? 'Please check the highlighted fields.';
      return reply.code(400).send({ message: first, fieldErrors } satisfies ApiErrorBody);
    }
    if (error instanceof AppError) {
      if (error instanceof TooManyRequests) reply.header('retry-after', String(error.retryAfterSeconds));
      const body: ApiErrorBody = { ...error.details, message: error.message, ...(error.fieldErrors && { fieldErrors: error.fieldErrors }) };
      return reply.code(error.statusCode).send(body);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message = (error.code && friendlyFastifyMessages[error.code]) || error.message;
      return reply.code(status).send({ message } satisfies ApiErrorBody);
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('retry-after', '5');
      return reply.code(503).send({ message: databaseUnavailableMessage } satisfies ApiErrorBody);
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({
      message: `Something went wrong on our side. Please try again. (Reference: ${request.id})`,
    } satisfies ApiErrorBody);
  });
}
