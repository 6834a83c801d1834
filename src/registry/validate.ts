import { z } from 'zod';
import { AppError } from '../errors.js';

type Issue = z.core.$ZodIssue;

const pathOf = (issue: Issue) => issue.path.map(String).join('.') || 'input';

/** Turns a zod issue into one sentence a person can act on, naming the field. */
export function describeIssue(issue: Issue): string {
  const field = pathOf(issue);
  // Messages written in our schemas are already sentences; zod's defaults are not.
  if (!/^(Too big|Too small|Invalid|Expected|Unrecognized)/.test(issue.message)) return issue.message;
  switch (issue.code) {
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
    case 'invalid_type':
      return issue.input === undefined ? `${field} is required.` : `${field} must be ${article(issue.expected)}.`;
    case 'invalid_value':
      return `${field} must be one of: ${issue.values.map(String).join(', ')}.`;
    case 'invalid_format':
      return `${field} is not in the expected format.`;
    case 'unrecognized_keys':
      return `Unknown field${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.join(', ')}.`;
    default:
      return `${field}: ${issue.message}`;
  }
}

const article = (t: string) => (t === 'int' ? 'a whole number' : t === 'array' ? 'a list' : t === 'object' ? 'an object' : `a ${t}`);

/** Validates raw input (snake_case keys) against an operation's schema; bad input → 400. */
export function parseInput<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const result = schema.safeParse(raw);
  if (!result.success) {
    const issues = result.error.issues;
    const first = describeIssue(issues[0]!);
    throw new AppError('invalid_input', issues.length > 1 ? `${first} (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : first);
  }
  return result.data;
}
