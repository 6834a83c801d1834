/**
 * What of the receptionist's knowledge customers and the phone agent may read: the published
 * page and the sources the owner marked shareable. Drafts and other sources never leave the
 * owner's operations. The tone the phone agent speaks in is composed here from the front desk's
 * preferences and the owner's instructions.
 */
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { formatInstant } from '../core/time.js';
import { businessZone } from '../db/business-zone.js';

type Db = PrismaClient | Prisma.TransactionClient;

export interface PublishedPage {
  text: string;
  publishedAt: string;
}

export interface SharedSource {
  sourceId: string;
  kind: string;
  title: string | null;
  text: string;
  addedAt: string;
}

export interface PublicKnowledge {
  published: PublishedPage | null;
  shared: SharedSource[];
}

export async function loadPublicKnowledge(db: Db, businessId: string): Promise<PublicKnowledge> {
  const receptionist = await db.receptionist.findUnique({ where: { businessId }, select: { published: true, publishedAt: true } });
  const zone = await businessZone(db, businessId);
  const shared = await db.receptionistSource.findMany({
    where: { businessId, shareable: true },
    select: { id: true, kind: true, title: true, text: true, addedAt: true },
    orderBy: [{ addedAt: 'asc' }, { id: 'asc' }],
  });
  return {
    published: publishedPage(receptionist, zone),
    shared: shared.map((s) => ({ sourceId: s.id, kind: s.kind, title: s.title, text: s.text, addedAt: formatInstant(s.addedAt, zone) })),
  };
}

export const publishedPage = (r: { published: string | null; publishedAt: Date | null } | null, zone: string): PublishedPage | null =>
  r?.published != null && r.publishedAt ? { text: r.published, publishedAt: formatInstant(r.publishedAt, zone) } : null;

/** How the phone agent speaks for the business until the owner says otherwise. */
export const DEFAULT_TONE =
  'Warm, brief and plain-spoken, as a small local business answers its own phone. Say the business name first. ' +
  'Quote only prices and times this brief or a live Porchlight call shows; never promise a repair price for a service call. ' +
  "If unsure, take a message with the caller's name and the best time to call back.";

export interface ToneParts {
  greeting: string;
  tone: string;
  handOff: string;
  handOffPhone: string | null;
  instructions: string;
}

/**
 * The phone agent's tone: the owner's tone (or the default), greeting, hand-off rule and
 * instructions, each on its own labelled line. Empty parts are left out.
 */
export function composeTone(parts: Partial<ToneParts> | null): string {
  const p = parts ?? {};
  const lines = [p.tone?.trim() || DEFAULT_TONE];
  if (p.greeting?.trim()) lines.push(`Greeting: ${p.greeting.trim()}`);
  const handOff = p.handOff?.trim();
  if (handOff || p.handOffPhone) {
    lines.push(`Hand-off: ${handOff || 'When the caller asks for a person.'} ${p.handOffPhone ? `Transfer the call to ${p.handOffPhone}.` : 'Take a message.'}`);
  }
  if (p.instructions?.trim()) lines.push(`The owner's instructions:\n${p.instructions.trim()}`);
  return lines.join('\n');
}
