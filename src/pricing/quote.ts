import { cleaningPriceListSchema, quoteCleaning } from './engine.js';

// Price lists are validated once per stored object (catalog rows live in the search snapshot).
const parsedLists = new WeakMap<object, ReturnType<typeof cleaningPriceListSchema.safeParse>>();
const parsedList = (priceList: unknown) => {
  if (priceList === null || typeof priceList !== 'object') return cleaningPriceListSchema.safeParse(priceList);
  let parsed = parsedLists.get(priceList);
  if (!parsed) parsedLists.set(priceList, (parsed = cleaningPriceListSchema.safeParse(priceList)));
  return parsed;
};

/** Prices a cleaning at one business; not ok (with the reason) when it doesn't offer what was asked. */
export function priceAt(business: { priceList: unknown }, job: Parameters<typeof quoteCleaning>[1]) {
  const list = parsedList(business.priceList);
  if (!list.success) return { ok: false as const, reason: 'This cleaner has not published a complete price list yet.' };
  return quoteCleaning(list.data, job);
}

