import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { MARKET_DATA_CLOSE, MARKET_DATA_OPEN } from '../../src/resolution/resolver-prompt.ts';

// A loopback OpenAI-compatible chat-completions server (CONVENTIONS: fake only what lies outside
// the product, and then with a real HTTP server). Tests set what it answers and read what it got.

export type StubRequest = { method: string; url: string; headers: IncomingHttpHeaders; body: unknown };
/**
 * 'hang' never answers; 'flood' sends a 200 with an endless chunked body (no content-length) until
 * the client hangs up; `chunked` sends `body` in small pieces without a content-length.
 */
export type StubReply = { status: number; body: string; chunked?: boolean } | 'hang' | 'flood';
export type StubHandler = (request: StubRequest) => StubReply | Promise<StubReply>;

export type Verdict = { verdict: string; confidence: number; analysis: string; sources: string[] };

/** A chat completion whose message content is `content` (an object is JSON-encoded). */
export function completion(content: string | object): StubReply {
  const text = typeof content === 'string' ? content : JSON.stringify(content);
  return {
    status: 200,
    body: JSON.stringify({
      id: 'chatcmpl-stub',
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    }),
  };
}

export function verdict(overrides: Partial<Verdict> = {}): StubReply {
  return completion({
    verdict: 'YES',
    confidence: 90,
    analysis: 'It happened.',
    sources: ['https://example.com/report'],
    ...overrides,
  });
}

/** Writes 64 KiB chunks for as long as the client reads, and stops when it goes away. */
function flood(res: ServerResponse) {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"choices":[{"message":{"content":"');
  const pump = () => {
    while (!res.destroyed && res.write(chunk)) {
      // keep writing until the socket pushes back
    }
    if (!res.destroyed) res.once('drain', pump);
  };
  res.on('close', () => res.removeAllListeners('drain'));
  pump();
}

export async function startAiStub() {
  const requests: StubRequest[] = [];
  let handler: StubHandler = () => verdict();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // kept as text
      }
      const request = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      requests.push(request);
      const reply = await handler(request);
      if (reply === 'hang') return;
      if (reply === 'flood') return flood(res);
      if (reply.chunked) {
        res.writeHead(reply.status, { 'content-type': 'application/json' });
        for (let at = 0; at < reply.body.length; at += 4096) res.write(reply.body.slice(at, at + 4096));
        res.end();
        return;
      }
      res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body);
    });
  });
  // Longer than any pause between two requests of a test file: with Node's 5 s default, a pooled
  // keep-alive socket the stub had just closed was sometimes reused, and the request failed as
  // "the resolver could not be reached" (seen in markets-settlement.test.ts under load).
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('stub did not get a port');
  return {
    /** What AI_BASE_URL should be. */
    url: `http://127.0.0.1:${address.port}/v1`,
    requests,
    reply(next: StubHandler) {
      handler = next;
    },
    async close() {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

export type AiStub = Awaited<ReturnType<typeof startAiStub>>;

/** The server's settings to judge with `stub` as its AI, as `model`: a 1 s timeout, a 70 % bar. */
export function judgeEnv(stub: AiStub, model: string): Record<string, string> {
  return {
    AI_BASE_URL: stub.url,
    AI_API_KEY: 'sk-test',
    AI_MODEL: model,
    AI_TIMEOUT_MS: '1000',
    AI_MIN_CONFIDENCE: '70',
  };
}

/** The system and user texts of a chat-completions request body. */
export function messagesOf(request: StubRequest | undefined): { system: string; user: string } {
  const body = request?.body;
  if (!body || typeof body !== 'object' || !('messages' in body) || !Array.isArray(body.messages)) {
    throw new Error('not a chat-completions request');
  }
  const messages: unknown[] = body.messages;
  const find = (role: string) => {
    const message: unknown = messages.find(
      (each: unknown) => typeof each === 'object' && each !== null && 'role' in each && each.role === role,
    );
    if (
      !message ||
      typeof message !== 'object' ||
      !('content' in message) ||
      typeof message.content !== 'string'
    ) {
      throw new Error(`no ${role} message`);
    }
    return message.content;
  };
  return { system: find('system'), user: find('user') };
}

/** The title of the market a judging request is about (its market data block), '' when it has none. */
export function marketTitleOf(request: StubRequest): string {
  const { user } = messagesOf(request);
  const start = user.indexOf(MARKET_DATA_OPEN) + MARKET_DATA_OPEN.length;
  const data: unknown = JSON.parse(user.slice(start, user.indexOf(MARKET_DATA_CLOSE)));
  return data && typeof data === 'object' && 'title' in data && typeof data.title === 'string'
    ? data.title
    : '';
}
