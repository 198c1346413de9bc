import fc from 'fast-check';

// Hostile values for the fuzz suite, as raw JSON text: a body is assembled from text fragments, so
// it can carry what JSON.stringify never writes (1e400, 2^53 + 1 as a literal, duplicate keys,
// `__proto__` as an own key, nesting a parser might choke on).

/** A fragment of JSON text: one value, exactly as it goes on the wire. */
export type RawJson = string;

export const json = (value: unknown): RawJson => JSON.stringify(value);

const TWO_31 = 2 ** 31;
const TWO_53 = 2 ** 53;

/** Number literals around every boundary the server has: int4, int8, 2^53, uint256, floats. */
const NUMBER_LITERALS: RawJson[] = [
  '0',
  '-0',
  '1',
  '-1',
  '0.5',
  '1.5',
  '1.0',
  '1e3',
  '1E3',
  '1e+3',
  '1e-3',
  '1e21',
  '1e308',
  '1e309',
  '1e400',
  '-1e400',
  '5e-324',
  `${TWO_31 - 1}`,
  `${TWO_31}`,
  '3000000000',
  `${2 ** 32}`,
  `${TWO_53 - 1}`,
  `${TWO_53}`,
  '9007199254740993',
  '9223372036854775807',
  '9223372036854775808',
  '18446744073709551616',
  '115792089237316195423570985008687907853269984665640564039457584007913129639935',
  '115792089237316195423570985008687907853269984665640564039457584007913129639936',
  `1${'0'.repeat(400)}`,
  '-2147483649',
];

/** Strings a lax number parser would read as a number (or as something else than meant). */
const NUMERIC_STRINGS: string[] = [
  '0',
  '-0',
  '00',
  '01',
  '-1',
  '+1',
  '1.5',
  '1.0',
  '.5',
  '5.',
  '1e3',
  '1E3',
  '1e400',
  '0x10',
  '0X10',
  '0b11',
  '0o7',
  '1_000',
  '1,000',
  ' 1',
  '1 ',
  '\t1\n',
  '1\u0000',
  'NaN',
  'Infinity',
  '-Infinity',
  'null',
  'undefined',
  'true',
  '',
  `${TWO_31 - 1}`,
  `${TWO_31}`,
  '3000000000',
  `${TWO_53}`,
  '9007199254740993',
  '9223372036854775808',
  '1'.repeat(78),
  '1'.repeat(79),
  '9'.repeat(78),
  '115792089237316195423570985008687907853269984665640564039457584007913129639936',
  '١٢٣', // Arabic-Indic digits
  '１２３', // full-width digits
  '𝟏𝟐𝟑', // mathematical bold digits
  '5000000000000000', // 0.005 BNB
  '10000000000000000', // 0.01 BNB
];

/** Text that has broken parsers, loggers, SQL and terminals before. */
const NASTY_STRINGS: string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0000'.repeat(64),
  '\ud800',
  '\udfff',
  '\ud83d',
  '\ufeff',
  '\ufeffYES',
  '\u202eTNEMELBAT',
  '\u200b',
  'é',
  'e\u0301',
  '👩‍👩‍👧‍👦',
  '\r\n',
  '\n'.repeat(100),
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  "'; drop table markets; --",
  '" or 1=1 --',
  '$1',
  '%s%s%s%n',
  '%00',
  '../../../../etc/passwd',
  '<script>alert(1)</script>',
  '{{constructor.constructor("return process")()}}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, on purpose
  '${process.exit()}',
  'yes',
  'Yes',
  'YES ',
  'bull\u0000',
  'BULL',
  'all',
  'ALL',
];

/** Any string at all, from any Unicode plane, including lone surrogates. */
const anyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({
    unit: fc.constantFrom('\u0000', '\ud800', '\udc00', '\u202e', '\\', '"', '%', '/'),
    maxLength: 8,
  }),
);

/** Lengths either side of the schema limits (title 120, text 2000, nonce 16..128), and past the 64 KiB body limit. */
const longString = fc
  .constantFrom(15, 16, 119, 120, 121, 128, 129, 1999, 2000, 2001, 10_000, 65_536, 70_000)
  .chain((length) => fc.constantFrom('a', 'é', '😀', '\u0000', ' ').map((unit) => unit.repeat(length)));

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 3, arbitrary: fc.constantFrom(...NUMERIC_STRINGS) },
  { weight: 3, arbitrary: anyString },
  { weight: 1, arbitrary: longString },
);

const finiteDouble = fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => json(n));

/** Numbers as JSON literals, including ones JSON.stringify would never write. */
export const hostileNumber: fc.Arbitrary<RawJson> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...NUMBER_LITERALS) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: finiteDouble },
  { weight: 1, arbitrary: fc.bigInt({ min: -(2n ** 300n), max: 2n ** 300n }).map(String) },
);

/** An id in any spelling: the boundaries of int4 and 2^53 as numbers and as strings. */
export const hostileId: fc.Arbitrary<RawJson> = fc.oneof(
  hostileNumber,
  fc.integer({ min: TWO_31 - 3, max: TWO_31 + 3 }).map(String),
  fc.constantFrom(...NUMERIC_STRINGS).map(json),
  fc.integer({ min: -3, max: 20 }).map(String),
);

/** Wei amounts: decimal strings that are zero, negative, fractional, hex, exponent or beyond uint256. */
export const hostileWei: fc.Arbitrary<RawJson> = fc.oneof(
  fc.constantFrom(...NUMERIC_STRINGS).map(json),
  fc.bigInt({ min: 0n, max: 2n ** 256n + 10n }).map((n) => json(n.toString())),
  fc.bigInt({ min: -(2n ** 70n), max: -1n }).map((n) => json(n.toString())),
  hostileNumber,
);

const HEX = '0123456789abcdefABCDEF';
const hex = (length: number) =>
  fc.string({ unit: fc.constantFrom(...HEX), minLength: length, maxLength: length });

/** Addresses: valid ones of any case, and near misses (one digit short, no prefix, unicode digits). */
export const hostileAddress: fc.Arbitrary<string> = fc.oneof(
  hex(40).map((h) => `0x${h}`),
  hex(40).map((h) => `0X${h}`),
  hex(40).map((h) => h),
  fc.constantFrom(39, 41, 64, 0).chain((n) => hex(n).map((h) => `0x${h}`)),
  hex(40).map((h) => `0x${h}\u0000`),
  hex(40).map((h) => ` 0x${h}`),
  hex(39).map((h) => `0x${h}٠`),
  fc.constant(`0x${'0'.repeat(40)}`),
  fc.constant(`0x${'f'.repeat(40)}`),
  hostileString,
);

/** Transaction hashes: random well-formed ones (never mined), and malformed ones. */
export const hostileTxHash: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: hex(64).map((h) => `0x${h}`) },
  { weight: 1, arbitrary: hex(64).map((h) => `0X${h}`) },
  { weight: 1, arbitrary: fc.constantFrom(63, 65, 40, 0, 128).chain((n) => hex(n).map((h) => `0x${h}`)) },
  { weight: 1, arbitrary: fc.constant(`0x${'0'.repeat(64)}`) },
  { weight: 1, arbitrary: hostileString },
);

/** Objects built to pollute prototypes or to be too deep for a recursive parser. */
const POISON_OBJECTS: RawJson[] = [
  '{"__proto__":{"polluted":"yes"}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"__proto__":null}',
  '{"toString":"x","valueOf":1}',
  `${'['.repeat(512)}${']'.repeat(512)}`,
  `${'{"a":'.repeat(256)}1${'}'.repeat(256)}`,
  '[null]',
  '[[]]',
  '{"":""}',
];

/** Any JSON value at all: literals, poison objects, random JSON, arrays of the above. */
export const hostileValue: fc.Arbitrary<RawJson> = fc.letrec<{ value: RawJson }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 3, arbitrary: hostileNumber },
    { weight: 3, arbitrary: hostileString.map(json) },
    { weight: 1, arbitrary: fc.constantFrom('null', 'true', 'false', '[]', '{}') },
    { weight: 1, arbitrary: fc.constantFrom(...POISON_OBJECTS) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map(json) },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 3 }).map((items) => `[${items.join(',')}]`) },
  ),
})).value;

/** Keys a body should never have: prototype keys, near-miss spellings, empties. */
export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'extra', 'id', 'status', 'isCreator', '', ' '),
  anyString,
);

/** One body field: its name and the raw JSON value it is sent with. */
export type Field = [key: string, value: RawJson];

const objectText = (fields: Field[]): string =>
  `{${fields.map(([key, value]) => `${json(key)}:${value}`).join(',')}}`;

/**
 * Bodies for one endpoint: mostly its valid shape with some fields broken (a hostile value of the
 * field's kind, of any kind, missing, repeated, or extra keys beside them), and sometimes no shape
 * at all (random JSON, a bare literal, an array).
 */
export function hostileBody(valid: fc.Arbitrary<Field[]>, byField: Record<string, fc.Arbitrary<RawJson>>) {
  const spoilField = (field: Field): fc.Arbitrary<Field[]> => {
    const [key] = field;
    const specific = byField[key] ?? hostileValue;
    return fc.oneof(
      { weight: 4, arbitrary: specific.map((value): Field[] => [[key, value]]) },
      { weight: 2, arbitrary: hostileValue.map((value): Field[] => [[key, value]]) },
      { weight: 1, arbitrary: fc.constant<Field[]>([]) },
      { weight: 1, arbitrary: specific.map((value): Field[] => [field, [key, value]]) },
      { weight: 1, arbitrary: specific.map((value): Field[] => [[key, value], field]) },
      { weight: 1, arbitrary: fc.constant<Field[]>([[key.toUpperCase(), field[1]]]) },
    );
  };
  const spoiled = valid.chain((fields) =>
    fc
      .array(fc.boolean(), { minLength: fields.length, maxLength: fields.length })
      .chain((mask) => {
        // At least one field is broken, or else this arm would send valid bodies only.
        const broken = mask.some(Boolean) ? mask : mask.map((_, index) => index === 0);
        return fc.tuple(
          ...fields.map((field, index) => (broken[index] ? spoilField(field) : fc.constant([field]))),
        );
      })
      .map((parts) => parts.flat()),
  );
  const withExtras = fc
    .tuple(valid, fc.array(fc.tuple(hostileKey, hostileValue), { minLength: 1, maxLength: 3 }))
    .map(([fields, extras]) => [...fields, ...extras]);
  const shuffledValid = valid.chain((fields) => fc.shuffledSubarray(fields, { minLength: fields.length }));
  return fc.oneof(
    { weight: 8, arbitrary: spoiled.map(objectText) },
    { weight: 2, arbitrary: withExtras.map(objectText) },
    { weight: 1, arbitrary: shuffledValid.map(objectText) },
    { weight: 1, arbitrary: fc.jsonValue().map(json) },
    { weight: 1, arbitrary: hostileValue },
  );
}

/** Content types an API client might send by mistake, or on purpose. */
export const hostileContentType: fc.Arbitrary<string | undefined> = fc.constantFrom(
  undefined,
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'application/jsonx',
  'application/json, text/plain',
  'application/merge-patch+json',
  'application/json\u0000',
  '',
);

/** What goes on the wire: the JSON text, or bytes made of it or of nothing at all. */
export const hostileBytes = (text: string): fc.Arbitrary<Buffer> =>
  fc.oneof(
    fc.uint8Array({ maxLength: 512 }).map((bytes) => Buffer.from(bytes)),
    fc.nat({ max: Math.max(0, text.length - 1) }).map((cut) => Buffer.from(text.slice(0, cut))),
    fc.constant(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)])),
    fc.constant(Buffer.concat([Buffer.from(text), Buffer.from([0xff, 0xfe, 0xc0, 0x80])])),
    fc.constant(Buffer.from(text, 'utf16le')),
  );

/** Percent-encodes every byte but the unreserved ones (encodeURIComponent throws on lone surrogates). */
export function percentEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** A path segment in any spelling, percent-encoded or not (double, partial, invalid encodings too). */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: hostileId.map((raw) => percentEncode(raw.replace(/^"|"$/g, ''))) },
  { weight: 2, arbitrary: hostileString.map((s) => percentEncode(s.slice(0, 300))) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '%33000000000',
      '%32%31%34%37%34%38%33%36%34%38',
      '%2531',
      '%zz',
      '%',
      '%E0%A4',
      '%C0%80',
      '%ED%A0%80',
      '%2F',
      '1%2F..%2F2',
      '..',
      '%2e%2e',
      '1;x=1',
      '1%00',
      '%00',
      '1%3Fx%3D1',
      '1%23',
      '%20',
      '+1',
      '%2B1',
      '0x1',
      '1e1',
      'ｓ',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }).map((s) => percentEncode(s)) },
);
