import { CLEAN_TYPES, cleaningPriceListSchema } from '../pricing/engine.js';
import { serviceCallPriceListSchema } from '../pricing/service-call.js';

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
