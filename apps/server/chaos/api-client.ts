import { z } from 'zod';

// The browser's side of the API, as plain HTTP to the server child process. A request that fails
// on the network (the server was just killed) answers status 0: to the run it is a closed tab.

export type ApiAnswer = { status: number; body: unknown };

export function createApiClient(baseUrl: string) {
  async function request(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    ip: string,
  ): Promise<ApiAnswer> {
    try {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        // Each player is its own client, as in production (the rate limit keys on it).
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(45_000),
      });
      const text = await response.text();
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: kept as text
      }
      return { status: response.status, body: parsed };
    } catch (error) {
      return { status: 0, body: error instanceof Error ? error.message : String(error) };
    }
  }
  return {
    post: (path: string, body: unknown, ip: string) => request('POST', path, body, ip),
    get: (path: string, ip: string) => request('GET', path, undefined, ip),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

const ErrorBodySchema = z.object({ error: z.object({ code: z.string() }) });

/** "201", "202", "409 TX_ALREADY_USED", "0 (network)"…: how answers are counted in the report. */
export function describeAnswer(answer: ApiAnswer): string {
  if (answer.status === 0) return '0 (network)';
  const error = ErrorBodySchema.safeParse(answer.body);
  return error.success ? `${answer.status} ${error.data.error.code}` : String(answer.status);
}
