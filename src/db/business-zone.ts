/**
 * A business's IANA time zone, for formatting instants that carry no business row of their own
 * (events, subscriptions). No operation changes a business's zone, so answers are kept; the map
 * is bounded so a long-running server does not grow with the catalog.
 */
import type { PrismaClient } from '../generated/prisma/client.js';

const LIMIT = 10_000;
const zones = new Map<string, string>();

export async function businessZone(prisma: Pick<PrismaClient, 'business'>, businessId: string): Promise<string> {
  const kept = zones.get(businessId);
  if (kept) return kept;
  const { timeZone } = await prisma.business.findUniqueOrThrow({ where: { id: businessId }, select: { timeZone: true } });
  if (zones.size >= LIMIT) zones.clear();
  zones.set(businessId, timeZone);
  return timeZone;
}

const slugZones = new Map<string, string>();

/** The zone of a business named by its slug (the public pages' id); an unknown slug reads as UTC. */
export async function businessZoneBySlug(prisma: Pick<PrismaClient, 'business'>, slug: string): Promise<string> {
  const kept = slugZones.get(slug);
  if (kept) return kept;
  const zone = (await prisma.business.findUnique({ where: { slug }, select: { timeZone: true } }))?.timeZone ?? 'UTC';
  if (slugZones.size >= LIMIT) slugZones.clear();
  slugZones.set(slug, zone);
  return zone;
}
