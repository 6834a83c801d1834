// The live cities' ZIP records, copied by npm run zips from the `zipcodes` package into
// data/zips.json; do not edit that file by hand (test/unit/zips.test.ts checks it).
import { createRequire } from 'node:module';

export interface ZipRecord {
  zip: string;
  latitude: number;
  longitude: number;
  city: string;
  state: string;
  country: string;
}

export interface ZipData {
  /** The package and version copied from. */
  source: string;
  cities: {
    city: string;
    state: string;
    /** The package's lookupByName(city, state). */
    zips: ZipRecord[];
    /** The package's radius(centre, miles), records of the same state. */
    around: { centre: string; miles: number; zips: ZipRecord[] };
  }[];
}

// require, not an import: esbuild drops the import's `type: 'json'` attribute, which Node needs.
export const ZIP_DATA: ZipData = createRequire(import.meta.url)('./data/zips.json');
