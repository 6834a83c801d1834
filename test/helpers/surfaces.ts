/**
 * One operation called through each surface (REST, MCP, GraphQL) with the answer brought to one
 * shape: snake_case body on success, the error code and sentence on refusal.
 */
import { operationByName } from '../../src/operations.js';
import { renameKeys, toCamel, toSnake } from '../../src/registry/case.js';
import type { TestApp } from './harness.js';

export type Surface = 'rest' | 'mcp' | 'graphql';
export const SURFACES: Surface[] = ['rest', 'mcp', 'graphql'];

export interface Answer {
  ok: boolean;
  body: any;
  code?: string;
  error?: string;
}

export async function call(app: TestApp, via: Surface, name: string, input: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<Answer> {
  if (via === 'rest') {
    const r = await app.rest(name, input, headers);
    return r.status === 200 ? { ok: true, body: r.body } : { ok: false, body: r.body, code: r.body.code, error: r.body.error };
  }
  if (via === 'mcp') {
    const r = await app.tool(name, input, headers);
    return r.isError ? { ok: false, body: r.body, code: r.body.code, error: r.body.error } : { ok: true, body: r.structured };
  }
  const op = operationByName.get(name)!;
  const hasInput = Object.keys(op.input.shape).length > 0;
  const r = await app.graphql(app.app.documents.get(name)!, hasInput ? { input: renameKeys(input, toCamel) } : {}, headers);
  const error = r.body.errors?.[0];
  if (error) return { ok: false, body: r.body, code: error.extensions?.code, error: error.message };
  return { ok: true, body: renameKeys(r.body.data[op.field], toSnake) };
}
