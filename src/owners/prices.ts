import { CLEAN_TYPES, cleaningPriceListSchema } from '../pricing/engine.js';
import { serviceCallPriceListSchema } from '../pricing/service-call.js';
import type { Tx } from '../db/transaction.js';
import type { PriceConflict, PriceKind, StructuredPrice } from '../receptionist/price-mentions.js';

/** One line of a price list as an owner reads it on their phone. */
export interface PriceLine {
  item: string;
  price: number | null;
  unit: string;
}

export interface AddOnPrice {
  addOn: string;
  price: number;
  minutes: number;
}

const dollars = (cents: number) => cents / 100;

/** A stored price list (shape depends on the kind of business) as readable lines and add-ons. */
export function describePriceList(priceList: unknown): { prices: PriceLine[]; addOns: AddOnPrice[] } {
  const cleaning = cleaningPriceListSchema.safeParse(priceList);
  if (cleaning.success) {
    const l = cleaning.data;
    const prices: PriceLine[] = [
      { item: 'Base price', price: dollars(l.base_cents), unit: 'per cleaning' },
      { item: 'Bedroom', price: dollars(l.per_bedroom_cents), unit: 'each' },
      { item: 'Bathroom', price: dollars(l.per_bathroom_cents), unit: 'each (half bath: half)' },
      ...CLEAN_TYPES.filter((t) => l.clean_type_multiplier[t] !== undefined).map((t) => ({
        item: `Clean type: ${t}`,
        price: null,
        unit: `× ${l.clean_type_multiplier[t]}`,
      })),
      { item: `Over ${l.included_sqft} sq ft`, price: dollars(l.per_extra_100_sqft_cents), unit: 'per extra 100 sq ft' },
      { item: 'Pets', price: dollars(l.pets_cents), unit: 'per cleaning' },
      { item: 'Minimum', price: dollars(l.minimum_cents), unit: 'per cleaning' },
    ];
    const addOns = Object.entries(l.add_ons).map(([addOn, a]) => ({ addOn, price: dollars(a!.cents), minutes: a!.minutes }));
    return { prices, addOns };
  }
  const calls = serviceCallPriceListSchema.safeParse(priceList);
  if (calls.success) {
    const prices = Object.entries(calls.data.service_call).map(([issue, cents]) => ({
      item: `Service call: ${issue}`,
      price: dollars(cents!),
      unit: `fee, ${calls.data.window_minutes}-minute arrival window; not the repair price`,
    }));
    return { prices, addOns: [] };
  }
  return { prices: [], addOns: [] };
}

/** Where a line of a call brief's prices comes from. */
export type PriceSource = 'price_list' | 'menu' | 'menu_add_on' | 'appointment';

/** A line of the business's own prices as the phone agent quotes it. */
export interface BriefPriceLine extends PriceLine {
  serviceId: string | null;
  /** fixed, from (a lower bound: staff confirm) or confirm (staff price it); null for a multiplier line. */
  priceKind: PriceKind | null;
  source: PriceSource;
}

export interface MenuServicePrice {
  id: string;
  name: string;
  priceKind: PriceKind;
  priceCents: number | null;
  durationMinutes: number | null;
}
export interface MenuAddOnPrice {
  id: string;
  name: string;
  priceCents: number | null;
}
export interface AppointmentServicePrice {
  id: string;
  name: string;
  priceCents: number;
  durationMinutes: number;
  payment: string;
}

const MENU_UNIT: Record<PriceKind, string> = { fixed: 'fixed price', from: 'from this price; staff confirm the total', confirm: 'priced by staff' };

/**
 * Every price the business set itself: its price list (cleaners and trades), its service menu and
 * its bookable appointment services, as lines to quote and as the named prices a knowledge page
 * is checked against (the structured prices are the authoritative ones).
 */
export function businessPrices(
  priceList: unknown,
  menu: { services: MenuServicePrice[]; addOns: MenuAddOnPrice[] },
  appointments: AppointmentServicePrice[],
): { prices: BriefPriceLine[]; addOns: AddOnPrice[]; named: StructuredPrice[] } {
  const list = describePriceList(priceList);
  const prices: BriefPriceLine[] = list.prices.map((p) => ({ ...p, serviceId: null, priceKind: p.price === null ? null : 'fixed', source: 'price_list' }));
  const named: StructuredPrice[] = list.addOns.map((a) => ({ service: a.addOn, priceKind: 'fixed', priceCents: Math.round(a.price * 100) }));
  const calls = serviceCallPriceListSchema.safeParse(priceList);
  if (calls.success) {
    for (const [issue, cents] of Object.entries(calls.data.service_call)) named.push({ service: issue, priceKind: 'fixed', priceCents: cents! });
  }
  for (const s of menu.services) {
    prices.push({ item: s.name, price: s.priceCents === null ? null : dollars(s.priceCents), unit: MENU_UNIT[s.priceKind], serviceId: s.id, priceKind: s.priceKind, source: 'menu' });
    named.push({ service: s.name, priceKind: s.priceKind, priceCents: s.priceCents });
  }
  for (const a of menu.addOns) {
    const kind: PriceKind = a.priceCents === null ? 'confirm' : 'fixed';
    prices.push({ item: a.name, price: a.priceCents === null ? null : dollars(a.priceCents), unit: `add-on, ${MENU_UNIT[kind]}`, serviceId: a.id, priceKind: kind, source: 'menu_add_on' });
    named.push({ service: a.name, priceKind: kind, priceCents: a.priceCents });
  }
  for (const s of appointments) {
    const unit = `appointment, ${s.durationMinutes} minutes${s.payment === 'upfront' ? ', paid upfront when booked' : ''}`;
    prices.push({ item: s.name, price: dollars(s.priceCents), unit, serviceId: s.id, priceKind: 'fixed', source: 'appointment' });
    named.push({ service: s.name, priceKind: 'fixed', priceCents: s.priceCents });
  }
  return { prices, addOns: list.addOns, named };
}

/** A disagreement between the knowledge page and the structured prices, in USD for the phone agent. */
export function conflictView(c: PriceConflict, page: 'published' | 'draft') {
  return {
    service: c.service,
    priceKind: c.priceKind,
    structuredPrice: c.structuredCents === null ? null : dollars(c.structuredCents),
    knowledgePrice: dollars(c.cents),
    sentence: c.sentence,
    page,
  };
}
export type PriceConflictView = ReturnType<typeof conflictView>;

/** The business's named prices and its price list, read for checking a knowledge page against them. */
export async function pagePrices(db: Pick<Tx, 'business'>, businessId: string): Promise<{ named: StructuredPrice[]; priceList: unknown }> {
  const b = await db.business.findUniqueOrThrow({
    where: { id: businessId },
    select: {
      priceList: true,
      serviceMenu: {
        select: {
          services: { select: { id: true, name: true, priceKind: true, priceCents: true, durationMinutes: true }, orderBy: { position: 'asc' } },
          addOns: { select: { id: true, name: true, priceCents: true }, orderBy: { position: 'asc' } },
        },
      },
      appointmentServices: { select: { id: true, name: true, priceCents: true, durationMinutes: true, payment: true }, orderBy: { position: 'asc' } },
    },
  });
  return { named: businessPrices(b.priceList, b.serviceMenu ?? { services: [], addOns: [] }, b.appointmentServices).named, priceList: b.priceList };
}
