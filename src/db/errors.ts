import { DatabaseError } from 'pg';
/**
 * PostgreSQL's own verdicts, read from the SQLSTATE the driver adapter reports (never from
 * message text, which changes with the server's language and version).
 */
function sqlState(err: unknown): string | undefined {
  // A plain connection's error (node-postgres DatabaseError) carries it itself.
  if (err instanceof DatabaseError) return err.code;
  const meta = (err as { meta?: { driverAdapterError?: { cause?: { originalCode?: unknown; code?: unknown } } } } | null)?.meta;
  const cause = meta?.driverAdapterError?.cause;
  const code = cause?.originalCode ?? cause?.code;
  return typeof code === 'string' ? code : undefined;
}

/** An exclusion constraint refused the row (23P01): e.g. two active visits of one business overlap. */
export const isExclusionViolation = (err: unknown) => sqlState(err) === '23P01';

/**
 * PostgreSQL broke a deadlock by rolling this transaction back (40P01; the ORM's P2034, which also
 * names a serialization failure): nothing of it stayed, and it may run again.
 */
export const isDeadlock = (err: unknown) => (err as { code?: unknown } | null)?.code === 'P2034' || ['40P01', '40001'].includes(sqlState(err) ?? '');

/**
 * A unique index refused the row (23505), e.g. a number already live for another business. The
 * ORM reports it as P2002 whichever index it was.
 */
export const isUniqueViolation = (err: unknown) => (err as { code?: unknown } | null)?.code === 'P2002' || sqlState(err) === '23505';
