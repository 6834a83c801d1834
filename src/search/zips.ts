/**
 * ZIP codes of the live cities and of the towns around them. They come from the `zipcodes`
 * package, copied by `npm run zips` (scripts/zips.ts) into data/zips.json (read by zip-data.ts): the package's 5 MB table
 * costs a running server ~100 MB of memory for the few hundred records searches and the demo
 * use. test/unit/zips.test.ts fails whenever the copy and the package disagree.
 */
import { ZIP_DATA } from './zip-data.js';
import type { ZipRecord } from './zip-data.js';

const byZip = new Map<string, ZipRecord>();
for (const c of ZIP_DATA.cities) for (const r of [...c.zips, ...c.around.zips]) byZip.set(r.zip, r);

const cityOf = (city: string, state: string) => ZIP_DATA.cities.find((c) => c.city === city && c.state === state);

/** A live city's ZIP records (as the package's lookupByName). */
export function zipsOfLiveCity(city: string, state: string): readonly ZipRecord[] {
  const found = cityOf(city, state);
  if (!found) throw new Error(`No ZIP data for ${city} ${state}: run npm run zips.`);
  return found.zips;
}

/** ZIP records within `miles` of a live city's centre (as the package's radius, same state). */
export function zipsAround(city: string, state: string, miles: number): readonly ZipRecord[] {
  const around = cityOf(city, state)?.around;
  if (!around || miles > around.miles) throw new Error(`No ZIP data ${miles} miles around ${city} ${state}: run npm run zips.`);
  return around.zips.filter((z) => distanceMiles(byZip.get(around.centre)!, z) <= miles);
}

export const zipRecord = (zip: string): ZipRecord | undefined => byZip.get(zip);

/** A live city's centre ZIP (the package's radius centre). */
export const cityCentre = (city: string, state: string): string | undefined => cityOf(city, state)?.around.centre;

/** Known ZIPs within `miles` of a ZIP, with their whole-mile distance, nearest first (the ZIP itself at 0). */
export function zipsNear(zip: string, miles: number): { zip: string; miles: number }[] {
  const centre = byZip.get(zip);
  if (!centre) return [{ zip, miles: 0 }];
  return [...byZip.values()]
    .map((r) => ({ zip: r.zip, miles: r.zip === zip ? 0 : distanceMiles(centre, r) }))
    .filter((r) => r.miles <= miles)
    .sort((a, b) => a.miles - b.miles || (a.zip < b.zip ? -1 : 1));
}

/** Whole miles between two known ZIPs, by the package's own formula; +∞ for unknown ones. */
export function zipDistance(a: string, b: string): number {
  const ra = byZip.get(a);
  const rb = byZip.get(b);
  return ra && rb ? distanceMiles(ra, rb) : Number.POSITIVE_INFINITY;
}

const rad = (deg: number) => deg * 0.017453292519943295;

function distanceMiles(a: ZipRecord, b: ZipRecord): number {
  const cos =
    Math.sin(rad(a.latitude)) * Math.sin(rad(b.latitude)) + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.cos(rad(a.longitude - b.longitude));
  return Math.round(Math.acos(cos) * 3958.56540656);
}
