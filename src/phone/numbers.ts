/**
 * The receptionist's own number: phone_numbers searches the carrier (and only remembers what it
 * showed, so activation can insist on one of those), activate_phone_number buys the one number the
 * owner approved. The attempt is stored (status purchasing) before the carrier is asked; an answer
 * lost on the way leaves it uncertain, and every later call or refresh looks it up at the carrier
 * instead of buying again. A business has one receptionist number, and a number one business:
 * the database's unique index on live numbers refuses a second holder before the carrier is asked
 * (Twilio would answer a repeated purchase of a number the account holds as if it were bought).
 * The carrier's answer must name the number asked for, or nothing is stored as active.
 */
import type { z } from 'zod';
import type { Services, OwnerContext } from '../context.js';
import type { Tx } from '../db/transaction.js';
import { isUniqueViolation } from '../db/errors.js';
import { AppError, invalid } from '../errors.js';
import { HOUR, MINUTE } from '../core/time.js';
import { normalisePhone } from '../sms/phone.js';
import { serving } from '../billing/store.js';
import { AREA_CODES, CarrierRefused, CarrierUnavailable, type CarrierNumber } from './carrier.js';
import type { activatePhoneNumberInput, phoneNumbersInput } from './inputs.js';
import { routeNumberOnCommit } from './voice.js';

/** An activation takes a number phone_numbers showed the business this recently. */
const OFFER_HOURS = 24;
/** A purchase younger than this may still be on its way: a lookup that misses it does not fail it. */
const IN_FLIGHT = 2 * MINUTE;
const SEARCH_LIMIT = 10;

const AREA_LIST = Object.entries(AREA_CODES).map(([code, p]) => `${code} (${p.locality})`).join(', ');

/**
 * The business's one lock for its receptionist number: purchases, transfers prepared, sent and
 * completed take turns under it, so none decides on what another is changing.
 */
export async function lockNumberOf(tx: Tx, businessId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`receptionist-number:${businessId}`}))`;
}

/** The refusal when a number is another business's: the same words for a purchase and a transfer. */
export const numberTaken = (number: string, doing: string) =>
  new AppError('number_taken', `${number} is already the receptionist number of another Porchlight business, so ${doing}. Choose another number with phone_numbers; if this one is the owner's own, contact Porchlight support.`);

/** A US number as E.164, or a 400 naming the field. */
export function usNumber(raw: string, field: string): string {
  const phone = normalisePhone(raw);
  if (!phone || !phone.e164.startsWith('+1') || phone.e164.length !== 12) throw invalid(`${field} must be a US phone number, e.g. +15125550123 or (512) 555-0123.`);
  return phone.e164;
}

export async function phoneNumbersService(input: z.output<typeof phoneNumbersInput>, ctx: OwnerContext) {
  const businessId = ctx.business.id;
  const business = await ctx.prisma.business.findUniqueOrThrow({ where: { id: businessId }, select: { city: true, phone: true } });
  const own = normalisePhone(business.phone)?.national.slice(0, 3);
  const areaCode = input.area_code ?? (own && own in AREA_CODES ? own : Object.keys(AREA_CODES).find((c) => AREA_CODES[c]!.locality === business.city) ?? '512');
  if (!(areaCode in AREA_CODES)) throw invalid(`The plan includes local numbers in these area codes: ${AREA_LIST}.`);
  let numbers;
  try {
    numbers = await ctx.phone.carrier.searchNumbers({ areaCode, contains: input.contains, limit: SEARCH_LIMIT });
  } catch (err) {
    throw carrierFailed(ctx, 'searching numbers', err);
  }
  const now = ctx.clock.date();
  // Only what was shown can be activated; what was shown long ago is forgotten.
  await ctx.prisma.$transaction([
    ctx.prisma.phoneNumberOffer.deleteMany({ where: { businessId, offeredAt: { lt: new Date(now.getTime() - OFFER_HOURS * HOUR) } } }),
    ...numbers.map((n) =>
      ctx.prisma.phoneNumberOffer.upsert({
        where: { businessId_number: { businessId, number: n.number } },
        create: { businessId, ...n, offeredAt: now },
        update: { offeredAt: now, locality: n.locality, region: n.region },
      }),
    ),
  ]);
  return {
    numbers,
    areaCode,
    next: numbers.length
      ? 'Nothing is bought by searching. Show the owner these numbers; activate_phone_number with the one they approve.'
      : 'No free numbers match; try another area code or fewer digits in contains.',
  };
}

/** A carrier failure answered as the payment provider's are: nothing happened that cannot be asked again. */
function carrierFailed(ctx: Pick<Services, 'logger'>, what: string, err: unknown): Error {
  if (!(err instanceof CarrierUnavailable) && !(err instanceof CarrierRefused)) return err as Error;
  ctx.logger.warn({ err: err.message }, `phone carrier failed while ${what}`);
  return new AppError('provider_unavailable', `The phone carrier did not answer while ${what}. Nothing was bought; try again in a minute.`);
}

const view = (row: { number: string; status: string }, next: string) => ({ number: row.number, status: row.status === 'active' ? 'active' : 'pending', next });

const PENDING_NEXT = 'The carrier has not confirmed the number yet. Nothing more will be bought: receptionist_refresh (or this call again) checks with the carrier.';

export async function activatePhoneNumberService(input: z.output<typeof activatePhoneNumberInput>, ctx: OwnerContext) {
  if (input.owner_approved !== true) throw invalid('owner_approved must be true: show the owner this exact number and send true only once they approve it.');
  const businessId = ctx.business.id;
  const number = usNumber(input.number, 'number');
  const now = ctx.clock.now();
  const idempotencyKey = `porchlight-number-${businessId}-${number}`;
  const decision = await ctx.transaction(async (tx) => {
    await lockNumberOf(tx, businessId);
    const existing = await tx.receptionistNumber.findUnique({ where: { businessId } });
    if (existing && existing.status !== 'failed') {
      if (existing.number !== number) throw invalid(`This business already has the number ${existing.number}; one receptionist number is included.`);
      return { buy: false as const, row: existing };
    }
    const moving = await tx.numberPort.findFirst({ where: { businessId, status: 'submitted' } });
    if (moving) {
      throw invalid(`The transfer of ${moving.number} is with the carrier and becomes the receptionist's number when it completes; nothing was bought. receptionist_refresh shows its progress.`);
    }
    if (!serving(await tx.receptionistBilling.findUnique({ where: { businessId } }))) {
      throw new AppError('plan_inactive', 'Activating a number needs an active receptionist plan: buy one with receptionist_checkout first.');
    }
    const offer = await tx.phoneNumberOffer.findUnique({ where: { businessId_number: { businessId, number } } });
    if (!offer || offer.offeredAt.getTime() < now - OFFER_HOURS * HOUR) {
      throw invalid('Choose a number from phone_numbers (shown in the last 24 hours), show it to the owner, then activate that exact number.');
    }
    // Recorded before the carrier is asked: whatever happens next, no second purchase starts, and
    // the unique index on live numbers refuses it here if another business holds the number.
    const fields = { number, locality: offer.locality, region: offer.region, status: 'purchasing', carrierRef: null, idempotencyKey, failure: null, requestedAt: new Date(now), activatedAt: null, updatedAt: new Date(now) };
    const row = await tx.receptionistNumber.upsert({ where: { businessId }, create: { businessId, ...fields }, update: fields });
    return { buy: true as const, row };
  }).catch((err: unknown) => {
    throw isUniqueViolation(err) ? numberTaken(number, 'nothing was bought') : err;
  });

  if (!decision.buy) {
    if (decision.row.status === 'active') return view(decision.row, 'The number is active.');
    const row = (await refreshNumber(ctx, businessId).catch(() => decision.row)) ?? decision.row;
    if (row.status === 'failed') throw new AppError('number_unavailable', `${row.failure ?? `The carrier has no record of buying ${number}.`} Call again to try once more, or choose another from phone_numbers.`);
    return view(row, row.status === 'active' ? 'The number is active.' : PENDING_NEXT);
  }

  const business = await ctx.prisma.business.findUniqueOrThrow({ where: { id: businessId }, select: { slug: true } });
  let bought: CarrierNumber;
  try {
    bought = await ctx.phone.carrier.purchaseNumber({ number, idempotencyKey, label: `Porchlight ${business.slug}` });
  } catch (err) {
    if (err instanceof CarrierRefused) {
      await ctx.prisma.receptionistNumber.update({ where: { businessId }, data: { status: 'failed', failure: err.message.slice(0, 300), updatedAt: ctx.clock.date() } });
      throw new AppError('number_unavailable', `The carrier did not sell ${number} (nothing was bought): choose another from phone_numbers.`);
    }
    // No answer: the purchase may or may not have happened. It is looked up from now on, never repeated.
    ctx.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'the phone carrier gave no answer to a purchase');
    await ctx.prisma.receptionistNumber.updateMany({ where: { businessId, status: 'purchasing' }, data: { status: 'uncertain', updatedAt: ctx.clock.date() } });
    return view({ number, status: 'pending' }, PENDING_NEXT);
  }
  const row = await settle(ctx, businessId, bought);
  if (row.status === 'failed') throw new AppError('number_unavailable', `${row.failure} Choose a number from phone_numbers again, or try again in a minute.`);
  return view(row, row.status === 'active' ? 'The number is active.' : 'The carrier is setting the number up; receptionist_refresh shows when it is active.');
}

/**
 * Stores what the carrier holds; a number turning active is announced once. An answer naming
 * another number than the one asked for is not stored: the attempt fails, saying so.
 */
async function settle(services: Services, businessId: string, held: CarrierNumber) {
  return services.transaction(async (tx) => {
    // Under the lock: a racing activation and refresh settling the same purchase announce it once.
    await lockNumberOf(tx, businessId);
    const before = await tx.receptionistNumber.findUniqueOrThrow({ where: { businessId } });
    if (held.number !== before.number) {
      services.logger.error({ business: businessId, asked: before.number, answered: held.number }, 'the phone carrier answered a purchase with another number');
      const failure = `The carrier's answer named ${held.number}, not ${before.number}, so nothing was made active.`;
      return tx.receptionistNumber.update({ where: { businessId }, data: { status: 'failed', failure, updatedAt: services.clock.date() } });
    }
    const activated = held.status === 'active' && before.status !== 'active';
    const row = await tx.receptionistNumber.update({
      where: { businessId },
      data: { status: held.status, carrierRef: held.carrierRef, failure: null, updatedAt: services.clock.date(), ...(activated ? { activatedAt: services.clock.date() } : {}) },
    });
    if (activated) await services.emit(tx, { type: 'receptionist.number_active', businessId, data: { change: row.number } });
    if (activated) routeNumberOnCommit(services, tx, row);
    return row;
  });
}

/**
 * Asks the carrier about a number not yet active (receptionist_refresh, a repeated activation):
 * found, it is stored as the carrier holds it; not found, a purchase that is no longer on its way
 * is failed (nothing was bought), so the owner may approve it again.
 */
export async function refreshNumber(services: Services, businessId: string) {
  const row = await services.prisma.receptionistNumber.findUnique({ where: { businessId } });
  if (!row || row.status === 'active' || row.status === 'failed') return row;
  const held = await services.phone.carrier.findNumber({ number: row.number, idempotencyKey: row.idempotencyKey });
  if (held) return settle(services, businessId, held);
  if (row.status === 'purchasing' && row.requestedAt.getTime() > services.clock.now() - IN_FLIGHT) return row;
  return services.prisma.receptionistNumber.update({
    where: { businessId },
    data: { status: 'failed', failure: 'The carrier has no record of the purchase: nothing was bought.', updatedAt: services.clock.date() },
  });
}
