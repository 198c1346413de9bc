import { ERROR_MESSAGES, type ErrorBody } from '@pm/core/contract/errors';
import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError } from './app-error.ts';

/**
 * The one place errors become HTTP (../shared/API.md error shape). 5xx are logged with their
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
  return new AppError('INTERNAL', ERROR_MESSAGES.INTERNAL, { cause: error });
}
