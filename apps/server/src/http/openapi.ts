import { ROUTES } from '@pm/core/contract/routes';
import * as z from 'zod/mini';

// Decision 017: every read answers with an ETag and revalidates with If-None-Match.
const ETAG_HEADER = {
  description: 'A weak validator of the body (W/"…"); send it back in If-None-Match.',
  schema: { type: 'string' },
};
const IF_NONE_MATCH = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  description: 'The ETag of a copy the client holds: 304 with no body when it is still current.',
  schema: { type: 'string' },
};
const NOT_MODIFIED = {
  description: 'Not Modified: the copy whose ETag was sent is current. No body.',
  headers: { ETag: ETAG_HEADER },
};

/** The OpenAPI 3.1 document, generated from the same zod schemas the server validates with. */
export function buildOpenApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const spec of Object.values(ROUTES)) {
    const path = spec.path.replace(/:([A-Za-z]+)/g, '{$1}');
    const isRead = spec.method === 'GET';
    const parameters = [
      ...('params' in spec ? objectParameters(spec.params, 'path') : []),
      ...('query' in spec ? objectParameters(spec.query, 'query') : []),
      ...(isRead ? [IF_NONE_MATCH] : []),
    ];
    const responses = Object.fromEntries([
      ...Object.entries(spec.responses).map(([status, schema]) => [
        status,
        {
          description: status,
          ...(isRead && status === '200' ? { headers: { ETag: ETAG_HEADER } } : {}),
          content: { 'application/json': { schema: toSchema(schema, 'output') } },
        },
      ]),
      ...(isRead ? [['304', NOT_MODIFIED]] : []),
    ]);
    paths[path] ??= {};
    paths[path][spec.method.toLowerCase()] = {
      summary: spec.summary,
      ...(parameters.length ? { parameters } : {}),
      ...('body' in spec
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: toSchema(spec.body, 'input') } },
            },
          }
        : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'BNB prediction markets API',
      version: '1.0.0',
      description:
        'Amounts are wei as decimal strings (fields ending Wei); errors are {"error":{"code","message"}}. ' +
        'Reads carry an ETag and answer 304 to a matching If-None-Match; Cache-Control is no-cache ' +
        '(private, no-cache under /api/users/). ' +
        'Payments carry their intent in the transaction data (pm1:create|bet|round:…). ' +
        'For POST /api/markets it is pm1:create:<contentHash>:<YES|NO>, where contentHash is keccak256 ' +
        '(0x, lower-case hex) of the UTF-8 bytes of JSON.stringify([category, duration, title ?? "", ' +
        'description, resolutionInstructions ?? ""]), the body\'s strings exactly as sent. ' +
        'Operator actions (/api/oracle/admin/*, /api/markets/{id}/admin/*) carry an EIP-712 signature of ' +
        'OperatorAction{action, marketId, result, reason, nonce, expiry} in the domain ' +
        '{name "BNB Predict", version "1", chainId} over a nonce from GET /api/admin/nonce.',
    },
    paths,
  };
}

function toSchema(schema: z.ZodMiniType, io: 'input' | 'output') {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  return rest;
}

function objectParameters(schema: z.ZodMiniType, location: 'path' | 'query') {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  const properties = json.properties ?? {};
  const required = new Set(json.required ?? []);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || required.has(name),
    schema: property,
  }));
}
