import { ERROR_MESSAGES, type ErrorBody } from '@pm/core/contract/errors';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.ts';
import { transientFault } from '../errors/transient-error.ts';

/**
 * The one place errors become HTTP (docs/api.md error shape). 5xx are logged with their
 * context and the client sees only a generic message.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | Error, request, reply) => {
    const appError = toAppError(error);
    if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: appError.code, message: appError.message }, 'request rejected');
    const body: ErrorBody = { error: { code: appError.code, message: appError.message } };
    return reply.code(appError.status).send(body);
  });
}

/**
 * Fastify refuses a path it cannot decode (FST_ERR_BAD_URL: `%zz`, a truncated UTF-8 sequence) or a
 * path parameter over its length limit (FST_ERR_MAX_PARAM_LENGTH) before routing, so not through
 * the error handler above: without this its own body shape went out (found by test/fuzz). Passed
 * to Fastify as `frameworkErrors`. The message does not echo the path, which may be huge.
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const appError =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? new AppError('BAD_REQUEST', 'A path parameter is too long.', { status: 414 })
      : error.code === 'FST_ERR_BAD_URL'
        ? new AppError('BAD_REQUEST', 'The request path is not a valid URL.')
        : toAppError(error);
  request.log.info({ code: error.code, status: appError.status }, 'request rejected before routing');
  const body: ErrorBody = { error: { code: appError.code, message: appError.message } };
  void reply.code(appError.status).send(body);
}

function toAppError(error: FastifyError | AppError | Error): AppError {
  if (error instanceof AppError) return error;
  const fastifyError: Partial<FastifyError> = error;
  const status = fastifyError.statusCode;
  if (fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
    return new AppError('BAD_REQUEST', 'The request body is not valid JSON.');
  }
  if (status === 429) return new AppError('RATE_LIMITED');
  if (status && status >= 400 && status < 500) {
    return new AppError('BAD_REQUEST', error.message || ERROR_MESSAGES.BAD_REQUEST, { status });
  }
  // A passing fault of the RPC or the database is "try again" (503), not a server bug (500).
  const fault = transientFault(error);
  if (fault === 'chain') return new AppError('CHAIN_UNAVAILABLE', undefined, { cause: error });
  if (fault === 'database')
    return new AppError('INTERNAL', ERROR_MESSAGES.INTERNAL, { cause: error, status: 503 });
  return new AppError('INTERNAL', ERROR_MESSAGES.INTERNAL, { cause: error });
}
