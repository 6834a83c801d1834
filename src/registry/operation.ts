import type { z } from 'zod';
import { toCamel } from './case.js';

/**
 * Who may call an operation. `public`: anyone (a bearer credential is optional and must be
 * valid when present); `signed_in`: a personal key or connection; `owner`: the business's
 * sign-in.
 */
export type Auth = 'public' | 'signed_in' | 'owner';

export interface Annotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint?: boolean;
}

/** One operation of the interface: everything REST, MCP and OpenAPI are generated from. */
export interface Operation<S extends z.ZodObject = z.ZodObject> {
  /** The spec's name: REST path /api/v1/<name>, MCP tool name. */
  name: string;
  method: 'GET' | 'POST';
  input: S;
  description: string;
  auth: Auth;
  annotations: Annotations;
  /** Root GraphQL field the persisted document calls. */
  field: string;
  /** Example input (and response) using demo data ids, shown in OpenAPI. */
  example?: { input: Record<string, unknown>; response?: Record<string, unknown> };
}

export function defineOperation<S extends z.ZodObject>(
  op: Omit<Operation<S>, 'field' | 'annotations'> & { field?: string; annotations?: Partial<Annotations> },
): Operation<S> {
  const read = op.method === 'GET';
  return {
    ...op,
    field: op.field ?? toCamel(op.name),
    annotations: {
      readOnlyHint: read,
      destructiveHint: false,
      idempotentHint: read,
      openWorldHint: false,
      ...op.annotations,
    },
  };
}
