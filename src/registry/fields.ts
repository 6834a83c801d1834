import { z } from 'zod';

// The spec's recurring field rules, each written once with a message a person can act on.

export const zip = z.string().regex(/^\d{5}$/, 'zip must be exactly 5 digits, e.g. 78704.').describe('US ZIP code, e.g. 78704.');
export const city = z.string().min(1).max(60).describe('Austin TX, San Francisco CA or San Jose CA (live cities; others: 400).');
export const hhmm = (name: string) =>
  z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, `${name} must be a local 24-hour time HH:MM, e.g. 09:30.`);
/**
 * A real calendar date within the years the service can schedule in. The pattern (years
 * 2000-2099, months 01-12, days 01-31) and `format: date` reach the JSON Schemas, so a date the
 * documents accept is one the service accepts.
 */
export const date = (name: string) => {
  const message = `${name} must be a real calendar date YYYY-MM-DD between 2000 and 2099.`;
  return z
    .string()
    .regex(/^20\d{2}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, { message, abort: true })
    .refine((s) => {
      const [y, m, d] = s.split('-').map(Number) as [number, number, number];
      return new Date(Date.UTC(y, m - 1, d)).getUTCDate() === d;
    }, message)
    .meta({ format: 'date' });
};
/** A calendar month YYYY-MM in the same years as `date`. */
export const month = (name: string) =>
  z.string().regex(/^20\d{2}-(0[1-9]|1[0-2])$/, `${name} must be YYYY-MM between 2000-01 and 2099-12, e.g. 2026-11.`);
/** Inputs needing at least one of some optional fields, and which; the OpenAPI document states it. */
export const needsOneOf = z.registry<{ fields: string[] }>();

/**
 * Requires at least one of `fields`. The rule stays out of the JSON Schema: MCP hosts drop or
 * refuse tools whose input schema has anyOf or if at its root, and query parameters cannot
 * carry it, so OpenAPI states it from `needsOneOf` instead.
 */
export function requireOneOf<S extends z.ZodObject>(schema: S, fields: (keyof S['shape'] & string)[], message: string): S {
  const out = schema.refine((v) => fields.some((f) => (v as Record<string, unknown>)[f] !== undefined), message);
  needsOneOf.add(out, { fields });
  return out;
}

/** Inputs where a field needs others beside it (JSON Schema's dependentRequired); the OpenAPI document states it. */
export const needsWith = z.registry<{ requires: Record<string, string[]> }>();

/**
 * Refuses a field sent without the fields it needs (`requires`: field → fields it needs). Like
 * requireOneOf, the rule stays out of the MCP tools' JSON Schema (hosts refuse root keywords
 * they do not know); OpenAPI states it from `needsWith`: dependentRequired in a request body,
 * `x-dependent-required` beside query parameters.
 */
export function requireWith<S extends z.ZodObject>(schema: S, requires: Partial<Record<keyof S['shape'] & string, (keyof S['shape'] & string)[]>>, message: string): S {
  const given = (v: unknown, f: string) => (v as Record<string, unknown>)[f] !== undefined;
  const out = schema.refine((v) => Object.entries(requires).every(([f, needs]) => !given(v, f) || (needs as string[]).every((n) => given(v, n))), message);
  needsWith.add(out, { requires: requires as Record<string, string[]> });
  return out;
}

/** A US number as people type it: every text it matches is a possible US number (a unit test checks it with libphonenumber). */
export const US_PHONE = /^(?:\+?1[ .-]?)?(?:\([2-9]\d{2}\)|[2-9]\d{2})[ .-]?\d{3}[ .-]?\d{4}$/;
/** A US phone number input: 10 digits (area code 2-9 first), optionally after +1 or 1, spaced by spaces, dots or hyphens, the area code optionally in parentheses. */
export const usPhone = (name: string) =>
  z
    .string()
    .regex(US_PHONE, `${name} must be a US phone number of 10 digits, e.g. +15125550134, (512) 555-0134 or 512.555.0134.`)
    .describe('A US number, e.g. +15125550134 or (512) 555-0134.');

export const positiveMoney = (name: string) =>
  z.number().gt(0, `${name} must be greater than 0.`).max(1_000_000, `${name} is too large.`);
export const page = z.int().min(1, 'page must be between 1 and 20.').max(20, 'page must be between 1 and 20.').default(1).describe('Pages of 20; see next_page.');
export const sortOrder = z.enum(['soonest', 'price']).default('soonest').describe('soonest: earliest start first; price: cheapest first.');
export const text = (name: string, max: number, min = 0) =>
  z
    .string()
    .min(min, min === 1 ? `${name} must not be empty.` : `${name} must be at least ${min} characters.`)
    .max(max, `${name} must be at most ${max} characters.`);
export const identifier = (name: string, max = 100) => z.string().min(1, `${name} is required.`).max(max, `${name} must be at most ${max} characters.`);

/** Customer time-of-day filters shared by searches and time listings. */
export const timeWindow = {
  start_after: hhmm('start_after').optional().describe('Earliest start, local HH:MM.'),
  finish_by: hhmm('finish_by').optional().describe('Latest end, local HH:MM.'),
};

/** Whole minutes between `min` and `max`. */
export const minutes = (name: string, min: number, max: number) => z.number().int(`${name} must be whole minutes.`).min(min).max(max);

/** One opening window of a weekly schedule (menu staff and appointment hours); a new schema per use, so each input gets its own GraphQL type. */
export const weeklyWindow = () =>
  z.object({
    weekday: z.number().int().min(0).max(6).describe('0 = Sunday ... 6 = Saturday.'),
    start_minute: minutes('start_minute', 0, 1439).describe('Local minutes after midnight.'),
    end_minute: minutes('end_minute', 1, 1440),
  });

/**
 * A private idempotency key the caller makes up: 20-100 characters, and random, so no other
 * request of the same caller makes the same one by chance. A run of one character, or a counter
 * padded with one, is refused: at least 5 different characters, none of them in more than half
 * the key (a random 20-character hex key fails this about once in ten million tries; a UUID
 * never).
 */
export const randomKey = (name: string) =>
  z
    .string()
    .min(20, `${name} must be at least 20 characters.`)
    .max(100, `${name} must be at most 100 characters.`)
    .refine(
      (key) => {
        const counts = new Map<string, number>();
        for (const c of key) counts.set(c, (counts.get(c) ?? 0) + 1);
        return counts.size >= 5 && Math.max(...counts.values()) * 2 <= key.length;
      },
      `${name} must be random, not a pattern or a counter (at least 5 different characters, none of them in more than half the key): make a new one for each request, e.g. a UUID from crypto.randomUUID() or 16 random bytes in hex.`,
    );

/** How the business reaches the customer, where the customer may give it. */
export const contactFields = {
  customer_email: z.email('customer_email must be an e-mail address.').max(200, 'customer_email must be at most 200 characters.').optional(),
  customer_phone: text('customer_phone', 30).optional().describe('Only if the user gave it.'),
};
