// How a tool reaches the API: Fastify's app.inject in server tests, fetch on loopback in e2e,
// chaos and the bench. Each keeps its own answer type (a light-my-request response, a status and
// JSON, an error tally), so the driver hands back whatever the transport answered.

/** A POST of a paid request: the path and the JSON body. */
export type ApiRequest = { path: string; body: Record<string, unknown> };

export type ApiTransport<Answer> = (request: ApiRequest) => Promise<Answer>;
