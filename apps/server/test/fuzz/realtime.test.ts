import { randomBytes } from 'node:crypto';
import { connect as connectTcp, type Socket } from 'node:net';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import WebSocket from 'ws';
import { REALTIME_CHANNEL } from '../../src/realtime/realtime-hub.ts';
import { createDbFingerprint } from './support/db-fingerprint.ts';
import { fuzzParameters } from './support/fuzz-cases.ts';
import { createViolationLog, emptyCounts, type FuzzCounts, writeCounts } from './support/fuzz-report.ts';
import { type FuzzWorld, startFuzzWorld } from './support/fuzz-world.ts';
import { hostileString, hostileValue } from './support/hostile.ts';

// WS /api/realtime only pushes; nothing a client sends may matter. Every case opens a socket, sends
// hostile frames (JSON, junk text, bytes, huge, invalid UTF-8, fragments, control frames, raw
// bytes that are no frame at all), then checks: the socket was ignored (it still answers a ping)
// or closed with a policy code; the server lives; a client connected all along still receives
// events; and the database is unchanged.

let world: FuzzWorld;
let url: string;
let port: number;
let observer: WebSocket;
const observed: string[] = [];
const counts: FuzzCounts = emptyCounts('realtime');
const violations = createViolationLog();
let fingerprint: () => Promise<string>;

/** Close codes the server may use on a client that sent junk: policy (1008) and too big (1009). */
const POLICY_CODES = [1008, 1009];
/** Codes that also fit when the frames themselves were broken (RFC 6455 §7.4.1). */
const INVALID_UTF8 = 1007;
const PROTOCOL_ERROR = 1002;

beforeAll(async () => {
  world = await startFuzzWorld();
  const address = await world.t.app.listen({ host: '127.0.0.1', port: 0 });
  port = Number(new URL(address).port);
  url = `ws://127.0.0.1:${port}/api/realtime`;
  observer = await open();
  observer.on('message', (data) => observed.push(String(data)));
  fingerprint = createDbFingerprint(world.t.db);
});
afterAll(async () => {
  writeCounts(counts);
  observer?.terminate();
  await world?.close();
});

function open(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });
}

type Outcome = { kind: 'ignored' } | { kind: 'closed'; code: number } | { kind: 'silent' };

/** Whether the server still answers this socket: a pong (ignored) or a close (with its code). */
function probe(socket: WebSocket, timeoutMs = 3000): Promise<Outcome> {
  return new Promise((resolve) => {
    const done = (outcome: Outcome) => {
      clearTimeout(timer);
      socket.off('pong', onPong);
      socket.off('close', onClose);
      resolve(outcome);
    };
    const onPong = () => done({ kind: 'ignored' });
    const onClose = (code: number) => done({ kind: 'closed', code });
    const timer = setTimeout(() => done({ kind: 'silent' }), timeoutMs);
    socket.on('pong', onPong);
    socket.on('close', onClose);
    if (socket.readyState === WebSocket.OPEN) socket.ping();
    else if (socket.readyState === WebSocket.CLOSED) done({ kind: 'closed', code: 1006 });
  });
}

/** An event published the way the server does it (NOTIFY on the realtime channel), seen by the observer. */
async function observerStillHears(): Promise<boolean> {
  const marker = observed.length;
  const tag = randomBytes(4).readUInt32BE(0) % 2 ** 31;
  const payload = JSON.stringify({ id: tag, topic: 'markets', payload: { id: tag } });
  await world.t.db.execute(
    // The same call the outbox trigger makes; it writes no row.
    sql`select pg_notify(${REALTIME_CHANNEL}, ${payload})`,
  );
  const deadline = Date.now() + 3000;
  while (Date.now() < deadline) {
    if (observed.slice(marker).some((text) => text.includes(`"id":${tag}`))) return true;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return false;
}

type Frame =
  | { kind: 'text'; data: string }
  | { kind: 'binary'; data: Buffer }
  | { kind: 'large'; size: number; binary: boolean }
  | { kind: 'invalid-utf8'; data: Buffer }
  | { kind: 'fragments'; parts: string[] }
  | { kind: 'ping'; data: Buffer }
  | { kind: 'pong'; data: Buffer };

const text = fc.oneof(
  { weight: 3, arbitrary: hostileValue },
  { weight: 2, arbitrary: hostileString },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom('subscribe', 'unsubscribe', 'publish', 'auth', 'ping'), hostileValue)
      .map(([type, value]) => `{"type":"${type}","topic":${value},"__proto__":{"polluted":1}}`),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom('markets', 'bets', 'rounds', 'prices', 'vault', 'payouts')
      .map((topic) => JSON.stringify({ topic, id: 2 ** 53 + 2, address: '0x0' })),
  },
);

const frame: fc.Arbitrary<Frame> = fc.oneof(
  { weight: 6, arbitrary: text.map((data): Frame => ({ kind: 'text', data })) },
  {
    weight: 2,
    arbitrary: fc
      .uint8Array({ maxLength: 2048 })
      .map((b): Frame => ({ kind: 'binary', data: Buffer.from(b) })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(1025, 64 * 1024, 512 * 1024, 2 * 1024 * 1024), fc.boolean())
      .map(([size, binary]): Frame => ({ kind: 'large', size, binary })),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom([0xff], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xe0, 0xa4], [0x7b, 0xfe, 0x7d])
      .map((bytes): Frame => ({ kind: 'invalid-utf8', data: Buffer.from(bytes) })),
  },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.string({ maxLength: 50 }), { minLength: 2, maxLength: 5 })
      .map((parts): Frame => ({ kind: 'fragments', parts })),
  },
  {
    weight: 1,
    arbitrary: fc.uint8Array({ maxLength: 125 }).map((b): Frame => ({ kind: 'ping', data: Buffer.from(b) })),
  },
  {
    weight: 1,
    arbitrary: fc.uint8Array({ maxLength: 125 }).map((b): Frame => ({ kind: 'pong', data: Buffer.from(b) })),
  },
);

function sendFrame(socket: WebSocket, f: Frame): void {
  if (socket.readyState !== WebSocket.OPEN) return;
  switch (f.kind) {
    case 'text':
      socket.send(f.data);
      break;
    case 'binary':
      socket.send(f.data, { binary: true });
      break;
    case 'large':
      socket.send(f.binary ? Buffer.alloc(f.size, 0x41) : 'A'.repeat(f.size), { binary: f.binary });
      break;
    case 'invalid-utf8':
      // A text frame whose bytes are not UTF-8: the client library sends them as they are.
      socket.send(f.data, { binary: false });
      break;
    case 'fragments':
      f.parts.forEach((part, index) => {
        socket.send(part, { fin: index === f.parts.length - 1 });
      });
      break;
    case 'ping':
      socket.ping(f.data);
      break;
    case 'pong':
      socket.pong(f.data);
      break;
  }
}

/** The codes a socket may be closed with after these frames. */
function allowedCodes(frames: Frame[]): number[] {
  return frames.some((f) => f.kind === 'invalid-utf8') ? [...POLICY_CODES, INVALID_UTF8] : POLICY_CODES;
}

/** After each case: the server still serves the other clients, and nothing was written. */
async function checkWorld(request: string, before: string) {
  if (!(await observerStillHears())) {
    violations.add('observer', {
      rule: 'a client connected all along stopped receiving events',
      request,
      answer: '',
    });
  }
  const after = await fingerprint();
  if (after !== before) {
    violations.add('db', {
      rule: 'the database changed after WebSocket frames',
      request,
      answer: `${before} → ${after}`,
    });
  }
}

function record(outcome: Outcome, allowed: number[], request: string) {
  counts.wsCases += 1;
  if (outcome.kind === 'ignored') {
    counts.wsIgnored += 1;
    return;
  }
  if (outcome.kind === 'silent') {
    violations.add('silent', {
      rule: 'the socket neither answered a ping nor was closed',
      request,
      answer: '',
    });
    return;
  }
  counts.wsClosed[outcome.code] = (counts.wsClosed[outcome.code] ?? 0) + 1;
  if (!allowed.includes(outcome.code)) {
    violations.add(`code ${outcome.code}`, {
      rule: `the server closed the socket with ${outcome.code}, not a policy code (${allowed.join('/')})`,
      request,
      answer: `close ${outcome.code}`,
    });
  }
}

const describeFrames = (frames: Frame[]) =>
  JSON.stringify(
    frames.map((f) =>
      f.kind === 'large'
        ? `${f.kind}:${f.size}`
        : `${f.kind}:${'data' in f ? (typeof f.data === 'string' ? f.data.slice(0, 120) : f.data.toString('hex').slice(0, 120)) : f.parts.join('|')}`,
    ),
  );

function takeViolations() {
  const list = violations.take();
  counts.violations += list.length;
  return list;
}

test('frames of any kind sent to /api/realtime are ignored or closed with a policy code, and break nothing', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(frame, { minLength: 1, maxLength: 4 }), async (frames) => {
      const before = await fingerprint();
      const socket = await open();
      for (const f of frames) sendFrame(socket, f);
      const request = describeFrames(frames);
      record(await probe(socket), allowedCodes(frames), request);
      socket.terminate();
      await checkWorld(request, before);
    }),
    fuzzParameters(500),
  );
  const list = takeViolations();
  expect(list, list.join('\n\n')).toHaveLength(0);
});

/** A raw TCP connection upgraded by hand, so bytes that are no valid frame can be written. */
function rawUpgrade(path = '/api/realtime'): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connectTcp(port, '127.0.0.1', () => {
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      );
    });
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      if (head.startsWith('HTTP/1.1 101')) resolve(socket);
      else reject(new Error(`upgrade refused: ${head.split('\r\n')[0]}`));
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });
}

/** A masked client frame, as RFC 6455 §5.2 lays it out; the header can lie about the length. */
function clientFrame(
  opcode: number,
  payload: Buffer,
  options: { fin?: boolean; rsv?: number; mask?: boolean; length?: bigint } = {},
) {
  const { fin = true, rsv = 0, mask = true } = options;
  const length = options.length ?? BigInt(payload.length);
  const first = (fin ? 0x80 : 0) | (rsv << 4) | (opcode & 0x0f);
  const maskBit = mask ? 0x80 : 0;
  let header: Buffer;
  if (length < 126n) header = Buffer.from([first, maskBit | Number(length)]);
  else if (length < 65536n) {
    header = Buffer.alloc(4);
    header.writeUInt8(first, 0);
    header.writeUInt8(maskBit | 126, 1);
    header.writeUInt16BE(Number(length), 2);
  } else {
    header = Buffer.alloc(10);
    header.writeUInt8(first, 0);
    header.writeUInt8(maskBit | 127, 1);
    header.writeBigUInt64BE(length, 2);
  }
  if (!mask) return Buffer.concat([header, payload]);
  const key = randomBytes(4);
  const masked = Buffer.from(payload.map((byte, i) => byte ^ (key[i % 4] ?? 0)));
  return Buffer.concat([header, key, masked]);
}

type RawOutcome = { kind: 'ignored' } | { kind: 'closed'; code: number } | { kind: 'waiting' };

/** Writes the bytes, then a valid ping: a pong means ignored, a close frame or EOF means closed. */
function rawProbe(socket: Socket, bytes: Buffer): Promise<RawOutcome> {
  return new Promise((resolve) => {
    let seen = Buffer.alloc(0);
    const done = (outcome: RawOutcome) => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onEnd);
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      seen = Buffer.concat([seen, chunk]);
      // Server frames are unmasked: opcode in the low bits of byte 0, length < 126 for control frames.
      for (let at = 0; at + 2 <= seen.length; ) {
        const opcode = (seen[at] ?? 0) & 0x0f;
        const length = (seen[at + 1] ?? 0) & 0x7f;
        if (opcode === 0x8)
          return done({ kind: 'closed', code: length >= 2 ? seen.readUInt16BE(at + 2) : 1005 });
        if (opcode === 0xa) return done({ kind: 'ignored' });
        at += 2 + (length < 126 ? length : length === 126 ? 2 + seen.readUInt16BE(at + 2) : 8);
      }
    };
    const onEnd = () => done({ kind: 'closed', code: 1006 });
    // A header announcing a long payload makes the server wait for it: the ping becomes payload.
    const timer = setTimeout(() => done({ kind: 'waiting' }), 300);
    socket.on('data', onData);
    socket.once('close', onEnd);
    socket.write(Buffer.concat([bytes, clientFrame(0x9, Buffer.from('probe'))]));
  });
}

const rawBytes: fc.Arbitrary<{ label: string; bytes: Buffer }> = fc.oneof(
  fc
    .uint8Array({ minLength: 1, maxLength: 256 })
    .map((b) => ({ label: 'random bytes', bytes: Buffer.from(b) })),
  fc
    .uint8Array({ maxLength: 64 })
    .map((b) => ({ label: 'unmasked text frame', bytes: clientFrame(0x1, Buffer.from(b), { mask: false }) })),
  fc
    .tuple(
      fc.constantFrom(0x3, 0x4, 0x5, 0x6, 0x7, 0xb, 0xc, 0xd, 0xe, 0xf),
      fc.uint8Array({ maxLength: 32 }),
    )
    .map(([opcode, b]) => ({
      label: `reserved opcode ${opcode}`,
      bytes: clientFrame(opcode, Buffer.from(b)),
    })),
  fc
    .tuple(fc.integer({ min: 1, max: 7 }), fc.string({ maxLength: 20 }))
    .map(([rsv, s]) => ({ label: `rsv bits ${rsv}`, bytes: clientFrame(0x1, Buffer.from(s), { rsv }) })),
  fc
    .string({ maxLength: 20 })
    .map((s) => ({ label: 'continuation without start', bytes: clientFrame(0x0, Buffer.from(s)) })),
  fc
    .uint8Array({ minLength: 126, maxLength: 200 })
    .map((b) => ({ label: 'control frame over 125 bytes', bytes: clientFrame(0x9, Buffer.from(b)) })),
  fc
    .uint8Array({ maxLength: 8 })
    .map((b) => ({ label: 'fragmented ping', bytes: clientFrame(0x9, Buffer.from(b), { fin: false }) })),
  fc
    .constantFrom(2n ** 63n - 1n, 2n ** 53n, 2n ** 32n, 200n * 1024n * 1024n, 2n * 1024n * 1024n)
    .map((length) => ({
      label: `header announcing ${length} bytes`,
      bytes: clientFrame(0x2, Buffer.from('x'), { length }),
    })),
  fc.constantFrom(0, 999, 1004, 1005, 1006, 1015, 2999, 5000, 65535).map((code) => {
    const payload = Buffer.alloc(2);
    payload.writeUInt16BE(code);
    return { label: `close with code ${code}`, bytes: clientFrame(0x8, payload) };
  }),
);

test('bytes that are no valid WebSocket frame get the socket closed, never the server', async () => {
  await fc.assert(
    fc.asyncProperty(rawBytes, async ({ label, bytes }) => {
      const before = await fingerprint();
      const socket = await rawUpgrade();
      const outcome = await rawProbe(socket, bytes);
      socket.destroy();
      const request = `${label}: ${bytes.toString('hex').slice(0, 200)}`;
      counts.wsCases += 1;
      if (outcome.kind === 'ignored' || outcome.kind === 'waiting') counts.wsIgnored += 1;
      else {
        counts.wsClosed[outcome.code] = (counts.wsClosed[outcome.code] ?? 0) + 1;
        // Broken framing is a protocol error (1002), or an abort (1006: the server destroyed the
        // connection); a length beyond the limit is 1009.
        const allowed = [...POLICY_CODES, PROTOCOL_ERROR, INVALID_UTF8, 1006];
        if (!allowed.includes(outcome.code)) {
          violations.add(`raw ${outcome.code}`, {
            rule: `the server closed a raw socket with ${outcome.code}`,
            request,
            answer: `close ${outcome.code}`,
          });
        }
      }
      await checkWorld(request, before);
    }),
    fuzzParameters(150),
  );
  const list = takeViolations();
  expect(list, list.join('\n\n')).toHaveLength(0);
});

test('the server still answers HTTP and new WebSocket clients after the fuzzing', async () => {
  const health = await fetch(`http://127.0.0.1:${port}/api/health`);
  expect(health.status).toBe(200);
  const fresh = await open();
  const seen: string[] = [];
  fresh.on('message', (data) => seen.push(String(data)));
  expect(await observerStillHears()).toBe(true);
  await expect.poll(() => seen.length).toBeGreaterThan(0);
  fresh.terminate();
});
