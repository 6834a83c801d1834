/** Reads an operation makes in the statement that checks the request's credential. */
import { Prisma } from '../generated/prisma/client.js';

/**
 * A read an operation asks to be made in the statement that checks the request's credential, for
 * the business the credential acts for, so that both cost one round trip (call_brief, as a phone
 * rings). The credential carries what it read (Credential.readAhead); the operation uses it only
 * when `key` is what its own input asks for, and reads it itself otherwise. The check and its
 * errors are the same with a read or without.
 */
export interface CredentialRead {
  /** The operation and what of its input the read depends on. */
  key: string;
  /** One value (a scalar subquery) for the business whose id is the expression `businessId`. */
  value: (businessId: Prisma.Sql) => Prisma.Sql;
}

/** The read's column in a verifier's statement (none without a read), for the business of `businessId`. */
export const readAheadColumn = (read: CredentialRead | undefined, businessId: string) =>
  read ? Prisma.sql`, ${read.value(Prisma.raw(businessId))} AS "readAhead"` : Prisma.empty;
