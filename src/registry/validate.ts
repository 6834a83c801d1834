import { z } from 'zod';
import { AppError } from '../errors.js';
import { baseOf } from './zod-shape.js';

const fieldOf = (path: readonly PropertyKey[]) => path.map(String).join('.') || 'input';

const KINDS: Record<string, string> = { int: 'a whole number', array: 'a list', object: 'an object', boolean: 'true or false' };
const kind = (t: string) => KINDS[t] ?? `a ${t}`;

/**
 * zod's error customisation for every operation input: a sentence naming the field. Fields
 * whose schema carries its own message keep it (zod gives those precedence).
 */
const errorMap: z.core.$ZodErrorMap = (issue) => {
  const field = fieldOf(issue.path ?? []);
  switch (issue.code) {
    case 'invalid_type': {
      if (issue.input === undefined) return `${field} is required.`;
      // z.int() reports its type as number; its format says it wants a whole one.
      const format = (issue.inst as { _zod?: { def?: { format?: string } } } | undefined)?._zod?.def?.format;
      return `${field} must be ${kind(format === 'safeint' || format === 'int32' ? 'int' : issue.expected)}.`;
    }
    case 'too_big':
      return issue.origin === 'string'
        ? `${field} must be at most ${issue.maximum} characters.`
        : issue.origin === 'array'
          ? `${field} may hold at most ${issue.maximum} items.`
          : `${field} must be ${issue.inclusive ? 'at most' : 'less than'} ${issue.maximum}.`;
    case 'too_small':
      return issue.origin === 'string'
        ? Number(issue.minimum) === 1
          ? `${field} must not be empty.`
          : `${field} must be at least ${issue.minimum} characters.`
        : issue.origin === 'array'
          ? `${field} must hold at least ${issue.minimum} items.`
          : `${field} must be ${issue.inclusive ? 'at least' : 'greater than'} ${issue.minimum}.`;
    case 'invalid_value':
      return `${field} must be one of: ${issue.values.map(String).join(', ')}.`;
    case 'invalid_format':
      return `${field} is not in the expected format.`;
    case 'unrecognized_keys':
      return `Unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}.`;
    case 'not_multiple_of':
      return `${field} must be a multiple of ${issue.divisor}.`;
    default:
      return undefined;
  }
};

// C0 controls and DEL, except tab, line feed and carriage return; PostgreSQL refuses NUL outright.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** Where a value sits: its key and its parent's place (built into a path only when needed). */
type Place = { key: string; parent: Place } | null;
const PATH_SHOWN = 6;
function pathOf(place: Place): string[] {
  const keys: string[] = [];
  for (let p = place; p; p = p.parent) keys.push(p.key);
  keys.reverse();
  return keys.length > PATH_SHOWN ? [...keys.slice(0, PATH_SHOWN), '…'] : keys;
}

/**
 * The path of the first string (value or key) in `value` holding a control character, or null.
 * Walked with a stack of its own, not by recursion: a body of lists nested a few hundred
 * thousand deep fits in the size limit, and must not overflow the call stack.
 */
export function controlCharacterAt(value: unknown): string | null {
  const stack: [unknown, Place][] = [[value, null]];
  while (stack.length) {
    const [v, place] = stack.pop()!;
    if (typeof v === 'string') {
      if (CONTROL.test(v)) return fieldOf(pathOf(place));
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], { key: String(i), parent: place }]);
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, child] = entries[i]!;
        const at = { key: k, parent: place };
        stack.push([child, at], [k, at]);
      }
    }
  }
  return null;
}

/**
 * Numbers sent for text fields (an MCP client's ZIP 78704) become their decimal text when that
 * text is exactly what the number means, and text sent for number fields ("2" bedrooms) becomes
 * the number when it is plainly one: assistants' models send both, over MCP and REST alike (a
 * query string is all text anyway). The field's own rules then judge the value.
 */
function scalarsAsDeclared(schema: z.ZodObject, raw: Record<string, unknown>): Record<string, unknown> {
  let out = raw;
  for (const [key, value] of Object.entries(raw)) {
    const numberAsText = typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
    const textAsNumber = typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value);
    if (!numberAsText && !textAsNumber) continue;
    const field = schema.shape[key] as z.ZodType | undefined;
    if (!field || baseOf(field).def.type !== (numberAsText ? 'string' : 'number')) continue;
    if (out === raw) out = { ...raw };
    out[key] = numberAsText ? String(value) : Number(value);
  }
  return out;
}

/** Validates raw input (snake_case keys) against an operation's schema; bad input → 400. */
export function parseInput<S extends z.ZodObject>(schema: S, raw: unknown): z.output<S> {
  const at = controlCharacterAt(raw);
  if (at) throw new AppError('invalid_input', `${at} must not contain control characters (such as NUL); send plain text.`);
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
    // A field the operation does not take is refused, not dropped: an assistant that sends
    // visit_start to cancel_booking must learn it would cancel the whole booking.
    const unknown = Object.keys(raw).filter((key) => !Object.hasOwn(schema.shape, key));
    if (unknown.length) {
      const accepted = Object.keys(schema.shape);
      throw new AppError(
        'invalid_input',
        `Unknown field${unknown.length > 1 ? 's' : ''}: ${unknown.slice(0, 5).map((key) => (key.length > 40 ? `${key.slice(0, 40)}…` : key)).join(', ')}. ${accepted.length ? `Accepted fields: ${accepted.join(', ')}.` : 'This operation takes no input.'}`,
      );
    }
  }
  const value = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? scalarsAsDeclared(schema, raw as Record<string, unknown>) : raw;
  const result = schema.safeParse(value, { error: errorMap });
  if (!result.success) {
    const issues = result.error.issues;
    const first = issues[0]!.message;
    throw new AppError('invalid_input', issues.length > 1 ? `${first} (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : first);
  }
  return result.data;
}
