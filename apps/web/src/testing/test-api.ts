import { createServer, type IncomingMessage } from 'node:http';

// For component tests: a real HTTP server on loopback stands in for the API, and a <base> element
// makes the page's relative URLs (/api/…) resolve to it.

export type TestApiAnswer = { status?: number; body: unknown };

/** Starts the stand-in API; `answer` is asked for each request. `close` removes it again. */
export async function startTestApi(answer: (request: IncomingMessage) => TestApiAnswer) {
  const server = createServer((request, response) => {
    const { status = 200, body } = answer(request);
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The test server has no port');
  const base = document.createElement('base');
  base.href = `http://127.0.0.1:${address.port}/`;
  document.head.append(base);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        base.remove();
        server.close(() => resolve());
      }),
  };
}

/** The stand-in API giving every request the same answer, and the paths asked, in order. */
export async function startRecordingTestApi(answer: TestApiAnswer) {
  const paths: string[] = [];
  const api = await startTestApi((request) => {
    paths.push(request.url ?? '');
    return answer;
  });
  return { ...api, paths };
}
