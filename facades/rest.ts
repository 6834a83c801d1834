import { Hono } from 'hono';
import type { z } from 'zod';
import type { Operation } from '../src/registry/contract.js';
import { baseOf } from '../src/registry/zod-shape.js';
import type { Outcome } from './execute.js';
import type { Services } from '../src/context.js';
import { AppError } from '../src/errors.js';
import { credentialOf } from '../src/auth/credentials.js';
import { refusalHttp, scopeOf, type Refusal } from './challenge.js';
import { clientAddress } from './client-address.js';
import { isJson, notJson } from './guards.js';

type Run = (op: Operation, raw: unknown, request: Request, clientAddress: string) => Promise<Outcome>;


type Kind = 'number' | 'boolean' | 'list' | 'json' | 'string';

/** How a query-string value of a field is decoded, read off the field's zod type. */
function kindOf(schema: z.ZodType): Kind {
  const { def } = baseOf(schema);
  switch (def.type) {
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
      // Lists of plain values are comma-separated; lists of objects are JSON-encoded.
      return kindOf(def.element!) === 'json' ? 'json' : 'list';
    case 'object':
      return 'json';
    default:
      return 'string';
  }
}

const kindsCache = new WeakMap<Operation, Map<string, Kind>>();
function kinds(op: Operation) {
  let k = kindsCache.get(op);
  if (!k) {
    k = new Map(Object.entries(op.input.shape).map(([name, s]) => [name, kindOf(s as z.ZodType)]));
    kindsCache.set(op, k);
  }
  return k;
}

/** Query parameters → the operation's input object; zod then judges the values. */
export function decodeQuery(op: Operation, params: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, kind] of kinds(op)) {
    const raw = params.get(name);
    if (raw === null || raw === '') continue;
    switch (kind) {
      case 'number':
        // JSON's number syntax, exponents included (a client writes 1e-7 as its language prints it).
        out[name] = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(raw.trim()) ? Number(raw) : raw;
        break;
      case 'boolean':
        out[name] = raw === 'true' ? true : raw === 'false' ? false : raw;
        break;
      case 'list':
        out[name] = raw.split(',').map((s) => s.trim()).filter(Boolean);
        break;
      case 'json':
        try {
          out[name] = JSON.parse(raw);
        } catch {
          out[name] = raw;
        }
        break;
      default:
        out[name] = raw;
    }
  }
  return out;
}

/**
 * The Idempotency-Key header (IETF httpapi idempotency-key draft) is the operation's request_key.
 * The draft's value is a structured-field string ("…"); a bare key, as many clients send, is
 * read as it is. The header and the field both sent must agree.
 */
export function withIdempotencyKey(
  op: Operation,
  input: Record<string, unknown>,
  header: string | undefined,
): { input: Record<string, unknown> } | { error: string } {
  if (header === undefined) return { input };
  if (!('request_key' in op.input.shape)) {
    return { error: `${op.name} takes no Idempotency-Key: only operations that create something do (request_key in /openapi.json). Send the request without it.` };
  }
  const quoted = /^"((?:[^"\\]|\\["\\])*)"$/.exec(header.trim());
  const key = quoted ? quoted[1]!.replace(/\\(["\\])/g, '$1') : header.trim();
  if (input.request_key !== undefined && input.request_key !== key) {
    return { error: 'The Idempotency-Key header and request_key differ. Send the key once (either one), or the same key in both.' };
  }
  return { input: { ...input, request_key: key } };
}

export function restRoutes(operations: ReadonlyMap<string, Operation>, run: Run, services: Services) {
  const { baseUrl, trustProxy } = services.config;
  const app = new Hono();
  app.all('/api/v1/:name', async (c) => {
    const name = c.req.param('name');
    const op = operations.get(name);
    if (!op) return c.json({ error: `There is no operation named ${name}. The list is at /openapi.json.`, code: 'not_found' }, 404);
    if (c.req.method !== op.method) {
      c.header('Allow', op.method);
      return c.json({ error: `${op.name} is called with ${op.method}.`, code: 'method_not_allowed' }, 405);
    }
    const refuse = (body: Record<string, unknown>, refusal: Refusal & { status?: number }) => {
      const http = refusalHttp(baseUrl, '', refusal, scopeOf(op));
      return c.json(body, http.status as 400, http.headers);
    };
    // A credential that is sent must be valid whatever the input; resolved here (and cached for
    // the run) so that the challenge can tell an invalid token from a missing one.
    const address = clientAddress(c, trustProxy);
    const query = op.method === 'GET' ? decodeQuery(op, new URL(c.req.url).searchParams) : undefined;
    try {
      // What the operation reads may be read in the credential's statement (Operation.readAhead).
      await credentialOf(services, c.req.raw, address, query && op.readAhead?.(query, services));
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      return refuse({ error: err.message, code: err.code, ...err.extra }, err);
    }
    let raw: unknown;
    if (query) raw = query;
    else {
      const type = c.req.header('content-type');
      const text = await c.req.text();
      // Only JSON: a form or text/plain body is what a page on another site can send without
      // asking (no CORS preflight), so it is refused rather than read.
      if (type === undefined ? text.trim() !== '' : !isJson(type)) {
        return c.json(notJson, 415);
      }
      try {
        raw = text.trim() ? JSON.parse(text) : {};
      } catch {
        return c.json({ error: 'The request body must be a JSON object.', code: 'invalid_input' }, 400);
      }
      if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
        return c.json({ error: 'The request body must be a JSON object.', code: 'invalid_input' }, 400);
      }
    }
    const keyed = withIdempotencyKey(op, raw as Record<string, unknown>, c.req.header('idempotency-key'));
    if ('error' in keyed) return c.json({ error: keyed.error, code: 'invalid_input' }, 400);
    const { status, body, json } = await run(op, keyed.input, c.req.raw, address);
    if (status === 200) return json === undefined ? c.json(body, 200) : c.body(json, 200, { 'content-type': 'application/json' });
    return refuse(body, { code: body.code, retry_after: body.retry_after, status });
  });
  return app;
}
