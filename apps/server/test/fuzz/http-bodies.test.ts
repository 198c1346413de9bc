import fc from 'fast-check';
import { afterAll, beforeAll, test } from 'vitest';
import { fuzzHttp } from './support/fuzz-cases.ts';
import { writeCounts } from './support/fuzz-report.ts';
import { type FuzzWorld, startFuzzWorld } from './support/fuzz-world.ts';
import {
  type Field,
  hostileAddress,
  hostileBody,
  hostileBytes,
  hostileContentType,
  hostileId,
  hostileNumber,
  hostileString,
  hostileTxHash,
  hostileValue,
  hostileWei,
  json,
  type RawJson,
} from './support/hostile.ts';
import { createHttpFuzzer, type HttpCase, type HttpFuzzer } from './support/http-fuzzer.ts';

// Every POST body of the API (packages/core/src/contract/routes.ts, and the dev price route of
// prices/price-routes.ts), fuzzed against the real app: valid shapes with hostile values, broken
// shapes, random JSON, random bytes and wrong content types. See support/http-fuzzer.ts for what
// each answer is checked against.

let world: FuzzWorld;
let fuzzer: HttpFuzzer;

beforeAll(async () => {
  world = await startFuzzWorld();
  fuzzer = createHttpFuzzer(world.t, 'http-bodies', world.errors.drain);
});
afterAll(async () => {
  if (fuzzer) writeCounts(fuzzer.counts);
  await world?.close();
});

/** Cases per payment and claim property; the file sends about 4,700 requests in all. */
const RUNS = 1000;

const oneOf = <T>(values: readonly T[]) => fc.constantFrom(...values);

// Values that pass the schema, mixed from the world's real ones and fresh ones.
const realHash = () => oneOf(world.txHashes);
const anyValidHash = () =>
  fc.oneof(
    realHash(),
    hostileTxHash.filter((h) => /^0x[0-9a-fA-F]{64}$/.test(h)),
  );
const anyValidAddress = () =>
  fc.oneof(
    oneOf(world.addresses),
    hostileAddress.filter((a) => /^0x[0-9a-fA-F]{40}$/.test(a)),
  );
const validWei = fc.oneof(
  fc.constantFrom('10000000000000000', '5000000000000000', '1', '0'),
  fc.bigInt({ min: 1n, max: 10n ** 20n }).map(String),
);
const prediction = oneOf(['YES', 'NO'] as const);

/** A request's body, sent as JSON mostly, sometimes with the wrong content type or as bytes. */
function onTheWire(text: fc.Arbitrary<string>) {
  return text.chain((body) =>
    fc.oneof(
      { weight: 12, arbitrary: fc.constant({ contentType: 'application/json', payload: body }) },
      {
        weight: 1,
        arbitrary: hostileContentType.map((contentType) => ({ contentType, payload: body })),
      },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.constantFrom<string | undefined>('application/json', undefined), hostileBytes(body))
          .map(([contentType, payload]) => ({ contentType, payload })),
      },
    ),
  );
}

function postCase(
  route: string,
  url: fc.Arbitrary<string>,
  body: fc.Arbitrary<string>,
  allowed2xx: readonly number[],
  mayWrite = false,
): fc.Arbitrary<HttpCase> {
  return fc
    .tuple(url, onTheWire(body))
    .map(([path, wire]): HttpCase => ({ route, method: 'POST', url: path, ...wire, allowed2xx, mayWrite }));
}

const fields = (...entries: [string, fc.Arbitrary<RawJson>][]): fc.Arbitrary<Field[]> =>
  fc.tuple(...entries.map(([key, value]) => value.map((raw): Field => [key, raw])));

/** Optional fields of a valid body: present or not. */
const optionalFields = (...entries: [string, fc.Arbitrary<RawJson>][]): fc.Arbitrary<Field[]> =>
  fc
    .tuple(...entries.map(([key, value]) => fc.option(value.map((raw): Field => [key, raw]))))
    .map((list) => list.filter((field): field is Field => field !== null));

/** The recorded request, sent again, sometimes in another case or field order: it may answer 201. */
const replay = (body: Record<string, unknown>) =>
  fc.tuple(fc.boolean(), fc.boolean()).map(([upper, reversed]) => {
    const entries = Object.entries(body).map(([key, value]): Field => {
      const text =
        typeof value === 'string' && upper && /^0x[0-9a-fA-F]+$/.test(value)
          ? `0x${value.slice(2).toUpperCase()}`
          : value;
      return [key, json(text)];
    });
    return `{${(reversed ? entries.reverse() : entries).map(([key, value]) => `${json(key)}:${value}`).join(',')}}`;
  });

test('POST /api/markets never answers 5xx, answers errors in the API shape and records nothing', async () => {
  const valid = fc
    .tuple(
      fields(
        ['txHash', anyValidHash().map(json)],
        ['creatorAddress', anyValidAddress().map(json)],
        ['description', fc.oneof(fc.string({ maxLength: 200 }), hostileString).map(json)],
        ['category', oneOf(['crypto', 'social_media', 'gaming', 'politics', 'sports']).map(json)],
        ['duration', oneOf(['hourly', 'daily']).map(json)],
        ['prediction', prediction.map(json)],
        ['amountWei', validWei.map(json)],
      ),
      optionalFields(
        ['title', fc.string({ maxLength: 120 }).map(json)],
        ['resolutionInstructions', fc.string({ maxLength: 300 }).map(json)],
      ),
    )
    .map(([required, optional]) => [...required, ...optional]);
  const body = fc.oneof(
    { weight: 9, arbitrary: hostileBody(valid, bodyFieldKinds) },
    { weight: 1, arbitrary: replay(world.replays.create) },
  );
  await fuzzHttp(fuzzer, postCase('POST /api/markets', fc.constant('/api/markets'), body, [201]), RUNS);
});

test('POST /api/markets/analyze never answers 5xx and records nothing', async () => {
  const valid = fc
    .tuple(
      fields(
        ['description', fc.oneof(fc.string({ maxLength: 200 }), hostileString).map(json)],
        ['duration', oneOf(['hourly', 'daily']).map(json)],
      ),
      optionalFields(
        ['title', fc.string({ maxLength: 120 }).map(json)],
        ['resolutionInstructions', fc.string({ maxLength: 300 }).map(json)],
      ),
    )
    .map(([required, optional]) => [...required, ...optional]);
  const body = hostileBody(valid, bodyFieldKinds);
  // The fuzz world has no AI: a valid body answers 200 aiConfigured false.
  await fuzzHttp(
    fuzzer,
    postCase('POST /api/markets/analyze', fc.constant('/api/markets/analyze'), body, [200]),
    RUNS / 5,
  );
});

test('POST /api/markets/:id/bets never answers 5xx, answers errors in the API shape and records nothing', async () => {
  const valid = fields(
    ['txHash', anyValidHash().map(json)],
    ['userAddress', anyValidAddress().map(json)],
    ['prediction', prediction.map(json)],
    ['amountWei', validWei.map(json)],
  );
  const body = fc.oneof(
    { weight: 9, arbitrary: hostileBody(valid, bodyFieldKinds) },
    { weight: 1, arbitrary: replay(world.replays.join) },
  );
  const url = fc
    .oneof(
      { weight: 4, arbitrary: fc.constant(world.marketId) },
      { weight: 1, arbitrary: fc.integer({ min: 1, max: 5 }) },
    )
    .map((id) => `/api/markets/${id}/bets`);
  await fuzzHttp(fuzzer, postCase('POST /api/markets/:id/bets', url, body, [201]), RUNS);
});

test('POST /api/oracle/bets never answers 5xx, answers errors in the API shape and records nothing', async () => {
  const epoch = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(world.epoch, world.epoch + 1, world.epoch - 1) },
    { weight: 1, arbitrary: fc.nat() },
  );
  const valid = fields(
    ['epoch', epoch.map(json)],
    ['position', oneOf(['bull', 'bear']).map(json)],
    ['amountWei', validWei.map(json)],
    ['userAddress', anyValidAddress().map(json)],
    ['txHash', anyValidHash().map(json)],
  );
  const body = fc.oneof(
    { weight: 9, arbitrary: hostileBody(valid, { ...bodyFieldKinds, epoch: hostileId }) },
    { weight: 1, arbitrary: replay(world.replays.oracle) },
  );
  await fuzzHttp(
    fuzzer,
    postCase('POST /api/oracle/bets', fc.constant('/api/oracle/bets'), body, [201]),
    RUNS,
  );
});

test('POST /api/claims never answers 5xx, answers errors in the API shape and pays nothing', async () => {
  const valid = fc
    .tuple(
      fields(
        ['userAddress', anyValidAddress().map(json)],
        ['scope', oneOf(['markets', 'oracle', 'all']).map(json)],
      ),
      optionalFields(['betId', fc.oneof(oneOf(world.betIds), fc.integer({ min: 1, max: 1000 })).map(json)]),
    )
    .map(([required, optional]) => [...required, ...optional]);
  const body = hostileBody(valid, { ...bodyFieldKinds, betId: hostileId });
  // 200 with success:false: nothing in the world is claimable, so nothing is ever paid.
  await fuzzHttp(fuzzer, postCase('POST /api/claims', fc.constant('/api/claims'), body, [200]), RUNS);
});

test('POST /api/oracle/admin/{genesis,reset} never answers 5xx and refuses every forged operator request', async () => {
  const { operator } = world;
  const action = oneOf(['genesis', 'reset'] as const);
  const cases = action.chain((name) => {
    // A valid signature for the other action, a stranger's, or hex of any length.
    const otherSignature = name === 'genesis' ? operator.resetSignature : operator.genesisSignature;
    const signature = fc.oneof(
      fc.constant(otherSignature),
      fc.constant(`${otherSignature.slice(0, -2)}1b`),
      fc.stringMatching(/^0x[0-9a-f]{0,200}$/),
      fc.stringMatching(/^0x[0-9a-f]{130}$/),
    );
    const valid = fields(
      ['address', fc.oneof(fc.constant(operator.address), anyValidAddress()).map(json)],
      [
        'nonce',
        fc.oneof(fc.constant(operator.nonce), fc.string({ minLength: 16, maxLength: 128 })).map(json),
      ],
      ['expiry', fc.oneof(fc.constant(operator.expiry), fc.integer()).map(json)],
      ['signature', signature.map(json)],
    );
    return postCase(
      `POST /api/oracle/admin/${name}`,
      fc.constant(`/api/oracle/admin/${name}`),
      hostileBody(valid, bodyFieldKinds),
      [],
    );
  });
  // Fewer: recovering a signer in JavaScript costs milliseconds a case.
  await fuzzHttp(fuzzer, cases, 400);
});

test('POST /api/dev/price never answers 5xx and sets only prices it can read', async () => {
  const valid = fc
    .tuple(
      fields([
        'usd',
        fc
          .oneof(
            fc.constantFrom('600', '600.12345678', '0.00000001'),
            fc.stringMatching(/^[0-9]{1,6}(\.[0-9]{1,8})?$/),
          )
          .map(json),
      ]),
      optionalFields(['hold', fc.boolean().map(json)]),
    )
    .map(([required, optional]) => [...required, ...optional]);
  const body = hostileBody(valid, { usd: fc.oneof(hostileWei, hostileNumber, hostileString.map(json)) });
  // A valid price is set and sampled: a 200 writes one price sample.
  await fuzzHttp(
    fuzzer,
    postCase('POST /api/dev/price', fc.constant('/api/dev/price'), body, [200], true),
    300,
  );
});

/** Hostile values of each field's own kind (the rest get any hostile value). */
const bodyFieldKinds: Record<string, fc.Arbitrary<RawJson>> = {
  txHash: hostileTxHash.map(json),
  creatorAddress: hostileAddress.map(json),
  userAddress: hostileAddress.map(json),
  address: hostileAddress.map(json),
  amountWei: hostileWei,
  description: hostileString.map(json),
  title: hostileString.map(json),
  resolutionInstructions: hostileString.map(json),
  nonce: hostileString.map(json),
  signature: fc.oneof(hostileString, hostileTxHash).map(json),
  prediction: fc.oneof(hostileString.map(json), hostileValue),
  position: fc.oneof(hostileString.map(json), hostileValue),
  scope: fc.oneof(hostileString.map(json), hostileValue),
  category: fc.oneof(hostileString.map(json), hostileValue),
  duration: fc.oneof(hostileString.map(json), hostileValue),
};
