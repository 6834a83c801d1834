/**
 * The owner's side of the AI receptionist's knowledge: sources (notes, web pages, PDFs and
 * photos read into text), the draft page rebuilt from them after every change, the owner's
 * instructions and publishing. Reading a link or file happens before the write transaction
 * (it may take seconds); the write then takes the business's receptionist lock, so concurrent
 * changes rebuild the draft one after another from what is committed.
 */
import type { z } from 'zod';
import type { Context, OwnerContext } from '../context.js';
import type { Tx } from '../db/transaction.js';
import { invalid, notFound } from '../errors.js';
import type { EventData } from '../events/emit.js';
import { MAX_SOURCES, SOURCES_MAX_CHARS, buildDraft, clip, type SourceKind } from './draft.js';
import { httpsUrl } from './fetch.js';
import { publishedPage } from './knowledge.js';
import type { FileType } from './read.js';
import { priceConflicts } from './price-mentions.js';
import { conflictView, pagePrices } from '../owners/prices.js';
import { homePriceConflicts } from './home-prices.js';
import type { addReceptionistSourceInput, editReceptionistSourceInput, updateReceptionistInput } from './inputs.js';
import { formatInstant } from '../core/time.js';
import { businessZone } from '../db/business-zone.js';

const sourceSelect = {
  id: true,
  kind: true,
  origin: true,
  format: true,
  title: true,
  text: true,
  truncated: true,
  shareable: true,
  addedAt: true,
  editedAt: true,
} as const;
const SOURCE_ORDER = [{ addedAt: 'asc' as const }, { id: 'asc' as const }];

interface SourceRow {
  id: string;
  kind: string;
  origin: string | null;
  format: string | null;
  title: string | null;
  text: string;
  truncated: boolean;
  shareable: boolean;
  addedAt: Date;
  editedAt: Date | null;
}

export const sourceView = (zone: string) => (s: SourceRow) => ({
  sourceId: s.id,
  kind: s.kind,
  text: s.text,
  shareable: s.shareable,
  addedAt: formatInstant(s.addedAt, zone),
  origin: s.origin,
  format: s.format,
  title: s.title,
  truncated: s.truncated,
  editedAt: s.editedAt ? formatInstant(s.editedAt, zone) : null,
});
export type SourceView = ReturnType<ReturnType<typeof sourceView>>;

/** Changes to one business's receptionist take turns. */
async function lockReceptionist(tx: Tx, businessId: string) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`receptionist:${businessId}`}))`;
}

/** The draft rebuilt from the business's committed sources (and this transaction's). */
async function rebuildDraft(tx: Tx, businessId: string, now: Date): Promise<string> {
  const sources = await tx.receptionistSource.findMany({ where: { businessId }, orderBy: SOURCE_ORDER, select: { kind: true, origin: true, format: true, title: true, text: true } });
  const draft = buildDraft(sources.map((s) => ({ ...s, kind: s.kind as SourceKind })));
  await tx.receptionist.upsert({
    where: { businessId },
    create: { businessId, draft, updatedAt: now },
    update: { draft, draftByOwner: false, updatedAt: now },
  });
  return draft;
}

/** Customers' cached copies of the business follow once the change commits (other instances: NOTIFY). */
const customersSeeItAfterCommit = (ctx: Context, tx: Tx, businessId: string) => ctx.changes.changed(tx, businessId);

const announce = (ctx: Context, tx: Tx, businessId: string, type: 'receptionist.updated' | 'receptionist.published', change: string) =>
  ctx.emit(tx, { type, businessId, clientName: ctx.clientName ?? null, data: { by: 'business', change } satisfies EventData });

/**
 * Prices the draft and the published page state that the business's own prices (price list,
 * menu, appointment services, a cleaner's quote for a home of a size) disagree with: the owner
 * corrects the page, or the prices.
 */
async function pageConflicts(tx: Tx, businessId: string, draft: string) {
  const { named, priceList } = await pagePrices(tx, businessId);
  const page = await tx.receptionist.findUnique({ where: { businessId }, select: { published: true } });
  const of = (text: string) => [...priceConflicts(text, named), ...homePriceConflicts(text, priceList)];
  return [...of(draft).map((c) => conflictView(c, 'draft')), ...of(page?.published ?? '').map((c) => conflictView(c, 'published'))];
}

export async function receptionistService(ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const business = await ctx.prisma.business.findUniqueOrThrow({
    where: { id: businessId },
    select: {
      slug: true,
      timeZone: true,
      receptionist: { select: { draft: true, draftByOwner: true, instructions: true, published: true, publishedAt: true } },
      sources: { select: sourceSelect, orderBy: SOURCE_ORDER },
    },
  });
  const r = business.receptionist;
  return {
    sources: business.sources.map(sourceView(business.timeZone)),
    draft: r?.draft ?? '',
    draftByOwner: r?.draftByOwner ?? false,
    published: publishedPage(r, business.timeZone),
    instructions: r?.instructions ?? '',
    pageUrl: ctx.links.businessPage(business.slug),
  };
}

/** A source's text as read, before anything is written. */
async function readSource(input: z.output<typeof addReceptionistSourceInput>, ctx: Context) {
  if (input.note !== undefined) {
    if (!input.note.trim()) throw invalid('note must not be empty.');
    // The owner's own words are kept exactly as typed.
    return { kind: 'note' as const, origin: null, format: null, title: null, text: input.note };
  }
  if (input.url !== undefined) {
    const origin = httpsUrl(input.url.trim(), 'url').href;
    const read = await ctx.reader.page(origin, ctx.signal);
    return { kind: 'url' as const, origin, format: read.format, title: read.title, text: read.text };
  }
  if (input.file_url !== undefined) {
    const origin = httpsUrl(input.file_url.trim(), 'file_url').href;
    const read = await ctx.reader.fileAt(origin, ctx.signal);
    return { kind: 'file' as const, origin, format: read.format, title: null, text: read.text };
  }
  const read = await ctx.reader.file(decodeBase64(input.file_base64!), input.file_type as FileType, ctx.signal);
  return { kind: 'file' as const, origin: null, format: read.format, title: null, text: read.text };
}

/** file_base64 (standard or URL-safe alphabet, an optional data: prefix) as bytes. */
export function decodeBase64(raw: string): Buffer {
  const body = raw.replace(/^data:[\w.+/-]*;base64,/i, '').replace(/\s+/g, '');
  if (!body || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(body) || body.length % 4 === 1) {
    throw invalid('file_base64 is not base64; send the file\'s bytes base64-encoded (a data: URL prefix is fine).');
  }
  return Buffer.from(body, 'base64');
}

/** The business's sources: how many, and the characters they hold. */
async function sourcesUsed(db: Pick<Tx, 'receptionistSource'>, businessId: string) {
  const existing = await db.receptionistSource.findMany({ where: { businessId }, select: { text: true } });
  return { count: existing.length, chars: existing.reduce((n, s) => n + s.text.length, 0) };
}

const tooManySources = () => invalid(`Your receptionist has ${MAX_SOURCES} sources, the most it keeps; remove one first (edit_receptionist_source with remove true).`);
const noRoomLeft = (used: number) =>
  invalid(
    `Your sources already hold ${used.toLocaleString('en-US')} of ${SOURCES_MAX_CHARS.toLocaleString('en-US')} characters, the most they may; ` +
      'remove or shorten a source first (edit_receptionist_source), then add this one.',
  );

export async function addReceptionistSourceService(input: z.output<typeof addReceptionistSourceInput>, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  // Before anything is fetched or read: a business with no room left is refused at once, so a
  // full quota cannot be used to make the service read the same file again and again.
  const before = await sourcesUsed(ctx.prisma, businessId);
  if (before.count >= MAX_SOURCES) throw tooManySources();
  if (before.chars >= SOURCES_MAX_CHARS) throw noRoomLeft(before.chars);
  const read = await readSource(input, ctx);
  const { text, truncated } = clip(read.text);
  const now = ctx.clock.date();
  return ctx.transaction(async (tx) => {
    await lockReceptionist(tx, businessId);
    // Again under the lock: other changes may have committed while this source was read.
    const { count, chars: used } = await sourcesUsed(tx, businessId);
    if (count >= MAX_SOURCES) throw tooManySources();
    if (used + text.length > SOURCES_MAX_CHARS) {
      throw invalid(
        `This source has ${text.length.toLocaleString('en-US')} characters and your sources already hold ${used.toLocaleString('en-US')} of ${SOURCES_MAX_CHARS.toLocaleString('en-US')}; ` +
          'remove or shorten a source first (edit_receptionist_source), or add only the part that matters as a note.',
      );
    }
    const source = await tx.receptionistSource.create({
      data: { businessId, kind: read.kind, origin: read.origin, format: read.format, title: read.title, text, truncated, addedAt: now },
      select: sourceSelect,
    });
    const draft = await rebuildDraft(tx, businessId, now);
    await announce(ctx, tx, businessId, 'receptionist.updated', 'source_added');
    return { source: sourceView(await businessZone(tx, businessId))(source), draft, priceConflicts: await pageConflicts(tx, businessId, draft) };
  });
}

export async function editReceptionistSourceService(input: z.output<typeof editReceptionistSourceInput>, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  if (input.remove && (input.text !== undefined || input.shareable !== undefined)) {
    throw invalid('remove true takes the source away; send it alone, without text or shareable.');
  }
  if (!input.remove && input.text === undefined && input.shareable === undefined) {
    throw invalid('Nothing to change: send text (the whole corrected text), shareable, or remove true.');
  }
  if (input.text !== undefined && !input.text.trim()) throw invalid('text must not be empty; to take the source away, send remove true.');
  const now = ctx.clock.date();
  return ctx.transaction(async (tx) => {
    await lockReceptionist(tx, businessId);
    const found = await tx.receptionistSource.findFirst({ where: { id: input.source_id, businessId }, select: sourceSelect });
    // The id sent is never repeated back: it may be anything, a key pasted by mistake included.
    if (!found) throw notFound('Your receptionist has no source with that source_id; receptionist lists the sources and their ids.');
    if (input.remove) {
      await tx.receptionistSource.delete({ where: { id: found.id } });
      const draft = await rebuildDraft(tx, businessId, now);
      await announce(ctx, tx, businessId, 'receptionist.updated', 'source_removed');
      customersSeeItAfterCommit(ctx, tx, businessId);
      return { sourceId: found.id, removed: true, source: null, draft };
    }
    if (input.text !== undefined) {
      const others = await tx.receptionistSource.findMany({ where: { businessId, id: { not: found.id } }, select: { text: true } });
      const used = others.reduce((n, s) => n + s.text.length, 0);
      if (used + input.text.length > SOURCES_MAX_CHARS) {
        throw invalid(`Your other sources hold ${used.toLocaleString('en-US')} characters; with this text they would pass ${SOURCES_MAX_CHARS.toLocaleString('en-US')}. Shorten it or remove another source.`);
      }
    }
    const source = await tx.receptionistSource.update({
      where: { id: found.id },
      data: {
        ...(input.text !== undefined ? { text: input.text, truncated: false, editedAt: now } : {}),
        ...(input.shareable !== undefined ? { shareable: input.shareable } : {}),
      },
      select: sourceSelect,
    });
    const draft = await rebuildDraft(tx, businessId, now);
    const change = [input.text !== undefined && 'source_corrected', input.shareable !== undefined && (input.shareable ? 'source_shared' : 'source_unshared')].filter(Boolean).join(',');
    await announce(ctx, tx, businessId, 'receptionist.updated', change);
    customersSeeItAfterCommit(ctx, tx, businessId);
    return { sourceId: found.id, removed: false, source: sourceView(await businessZone(tx, businessId))(source), draft };
  });
}

export async function updateReceptionistService(input: z.output<typeof updateReceptionistInput>, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const now = ctx.clock.date();
  const conflicts = await ctx.transaction(async (tx) => {
    await lockReceptionist(tx, businessId);
    const current = await tx.receptionist.findUnique({ where: { businessId }, select: { draft: true, published: true } });
    const draft = input.draft ?? current?.draft ?? '';
    const changes: string[] = [];
    const data: { draft?: string; draftByOwner?: boolean; instructions?: string; published?: string | null; publishedAt?: Date | null } = {};
    if (input.draft !== undefined) {
      Object.assign(data, { draft: input.draft, draftByOwner: true });
      changes.push('draft');
    }
    if (input.instructions !== undefined) {
      data.instructions = input.instructions;
      changes.push('instructions');
    }
    let published: 'published' | 'unpublished' | null = null;
    if (input.publish) {
      if (!draft.trim()) {
        if (current?.published == null) throw invalid('The draft is empty, so there is nothing to publish: add sources or send a draft first.');
        // Publishing an empty draft takes the page down.
        Object.assign(data, { published: null, publishedAt: null });
        published = 'unpublished';
      } else if (draft !== current?.published) {
        Object.assign(data, { published: draft, publishedAt: now });
        published = 'published';
      }
    }
    await tx.receptionist.upsert({ where: { businessId }, create: { businessId, draft: '', ...data, updatedAt: now }, update: { ...data, updatedAt: now } });
    if (changes.length) await announce(ctx, tx, businessId, 'receptionist.updated', changes.join(','));
    if (published) {
      await announce(ctx, tx, businessId, 'receptionist.published', published);
      customersSeeItAfterCommit(ctx, tx, businessId);
    }
    return pageConflicts(tx, businessId, draft);
  });
  const { sources: _sources, ...page } = await receptionistService(ctx);
  return { ...page, priceConflicts: conflicts };
}
