/**
 * Dashboard sessions: an owner who signed in at /app with e-mail and password. The browser holds
 * a random token in a cookie; only its sha256 is stored. A session ends SESSION_HOURS after sign-in
 * or when the owner signs out. Forms carry a CSRF token derived from the session token, so it
 * needs no storage and dies with the session.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Services } from '../context.js';
import type { Credential } from './vocabulary.js';
import { AppError } from '../errors.js';
import { HOUR } from '../core/time.js';
import { hashToken, newToken } from './tokens.js';

export const SESSION_HOURS = 12;
const READ_WRITE = new Set(['read', 'write'] as const);

export interface DashboardSession {
  id: string;
  ownerId: string;
  ownerName: string;
  businessId: string;
  businessName: string;
  /** The business's IANA zone, for showing times. */
  timeZone: string;
  expiresAt: Date;
}

/** The credential the dashboard acts with: the owner, for the session's business. */
export const sessionCredential = (s: DashboardSession): Credential => ({
  id: s.id,
  kind: 'session',
  scopes: READ_WRITE,
  businessId: s.businessId,
  expiresAt: s.expiresAt.getTime(),
});

/** Starts a session for an owner whose password was checked; acts for `businessId` (theirs). Returns the cookie's token. */
export async function startSession(services: Services, ownerId: string, businessId: string): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken('ds_', 32);
  const now = services.clock.date();
  const expiresAt = new Date(now.getTime() + SESSION_HOURS * HOUR);
  await services.prisma.$transaction(async (tx) => {
    // Ended sessions need no keeping; the owner's own are cleared as they sign in again.
    await tx.ownerSession.deleteMany({ where: { ownerId, OR: [{ expiresAt: { lte: now } }, { revokedAt: { not: null } }] } });
    await tx.ownerSession.create({ data: { ownerId, businessId, tokenHash: hashToken(token), createdAt: now, expiresAt } });
  });
  return { token, expiresAt };
}

/** The live session a cookie token names, or null. */
export async function sessionOf(services: Services, token: string | undefined): Promise<DashboardSession | null> {
  if (!token || !token.startsWith('ds_') || token.length > 100) return null;
  const row = await services.prisma.ownerSession.findUnique({
    where: { tokenHash: hashToken(token) },
    select: { id: true, ownerId: true, businessId: true, expiresAt: true, revokedAt: true, owner: { select: { name: true } }, business: { select: { name: true, ownerId: true, timeZone: true } } },
  });
  // A business that changed hands since sign-in is no longer the owner's.
  if (!row || row.revokedAt || row.expiresAt.getTime() <= services.clock.now() || row.business.ownerId !== row.ownerId) return null;
  return { id: row.id, ownerId: row.ownerId, ownerName: row.owner.name, businessId: row.businessId, businessName: row.business.name, timeZone: row.business.timeZone, expiresAt: row.expiresAt };
}

/** Signs out: the token stops working at once. */
export async function endSession(services: Services, sessionId: string): Promise<void> {
  await services.prisma.ownerSession.updateMany({ where: { id: sessionId, revokedAt: null }, data: { revokedAt: services.clock.date() } });
}

/** The owner's businesses, for choosing which one the dashboard acts for. */
export const ownerBusinesses = (services: Services, ownerId: string) =>
  services.prisma.business.findMany({ where: { ownerId }, select: { id: true, name: true }, orderBy: [{ name: 'asc' }, { id: 'asc' }] });

/** Makes the session act for another of the owner's businesses. */
export async function switchBusiness(services: Services, session: DashboardSession, businessId: string): Promise<void> {
  const { count } = await services.prisma.ownerSession.updateMany({
    where: { id: session.id, revokedAt: null, owner: { businesses: { some: { id: businessId } } } },
    data: { businessId },
  });
  if (count !== 1) throw new AppError('invalid_input', 'Choose one of your businesses.');
}

/** The CSRF token of a session's forms: a MAC of the session token, which only the owner's browser holds. */
export const csrfToken = (sessionToken: string) => createHmac('sha256', sessionToken).update('porchlight-dashboard-form').digest('base64url');

export function csrfMatches(sessionToken: string, sent: string | undefined): boolean {
  const expected = Buffer.from(csrfToken(sessionToken));
  const given = Buffer.from(sent ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
