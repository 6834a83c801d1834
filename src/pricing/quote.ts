import { parsedOnce } from './parsed.js';
import { checkJob, cleaningPriceListSchema, quoteCheckedJob, type CleaningJob, type CleaningQuote } from './engine.js';

const parsedList = parsedOnce(cleaningPriceListSchema);

const NO_LIST = { ok: false as const, reason: 'This cleaner has not published a complete price list yet.' };

/** Prices a cleaning at one business; not ok (with the reason) when it doesn't offer what was asked. */
export function priceAt(business: { priceList: unknown }, job: CleaningJob): CleaningQuote {
  return pricer(job)(business);
}

/** One job priced at many businesses (a search): the job is checked once. */
export function pricer(job: CleaningJob): (business: { priceList: unknown }) => CleaningQuote {
  const checked = checkJob(job);
  if (!checked.ok) return () => checked;
  return (business) => {
    const list = parsedList(business.priceList);
    return list.success ? quoteCheckedJob(list.data, checked.job) : NO_LIST;
  };
}
