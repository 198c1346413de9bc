import type { ApiTransport } from './api-transport.ts';

/** What the API answered over HTTP: the status and the body parsed as JSON (null if it was not). */
export type FetchAnswer = { status: number; json: unknown };

export type FetchTransportOptions = {
  headers?: Record<string, string>;
  /**
   * Post the request again while the server answers 202 (the payment is valid but not final yet),
   * as a client waiting for its bet does; off by default, so a test can see the 202 itself.
   */
  whilePending?: { everyMs: number; timeoutMs: number };
};

/** Real HTTP to `baseUrl` (the API on loopback). */
export function fetchTransport(
  baseUrl: string,
  options: FetchTransportOptions = {},
): ApiTransport<FetchAnswer> {
  const postOnce = async (path: string, body: unknown): Promise<FetchAnswer> => {
    const response = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...options.headers },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, json: parseJson(text) };
  };
  return async ({ path, body }) => {
    const pending = options.whilePending;
    const deadline = Date.now() + (pending?.timeoutMs ?? 0);
    for (;;) {
      const answer = await postOnce(path, body);
      if (!pending || answer.status !== 202 || Date.now() > deadline) return answer;
      await new Promise((resolve) => setTimeout(resolve, pending.everyMs));
    }
  };
}

function parseJson(text: string): unknown {
  try {
    const json: unknown = JSON.parse(text);
    return json;
  } catch {
    return null;
  }
}
