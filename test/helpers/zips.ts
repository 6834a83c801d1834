import { createRequire } from 'node:module';
import type { ZipData, ZipRecord } from '../../src/search/zip-data.js';
import { LIVE_CITIES, NEIGHBOUR_RADIUS_MILES } from '../../src/demo/generate.js';

const require = createRequire(import.meta.url);

/** What src/search/zip-data.ts must hold, read from the `zipcodes` package (a dev dependency). */
export function zipDataFromPackage(): ZipData {
  const zipcodes = require('zipcodes') as {
    lookupByName(city: string, state: string): ZipRecord[];
    radius(zip: string, miles: number, full: true): ZipRecord[];
  };
  const version = (require('zipcodes/package.json') as { version: string }).version;
  const record = (r: ZipRecord): ZipRecord => ({ zip: r.zip, latitude: r.latitude, longitude: r.longitude, city: r.city, state: r.state, country: r.country });
  return {
    source: `zipcodes@${version}`,
    cities: LIVE_CITIES.map((c) => ({
      city: c.city,
      state: c.state,
      zips: zipcodes.lookupByName(c.city, c.state).map(record),
      around: {
        centre: c.demoZip,
        miles: NEIGHBOUR_RADIUS_MILES,
        zips: zipcodes.radius(c.demoZip, NEIGHBOUR_RADIUS_MILES, true).filter((r) => r.country === 'US' && r.state === c.state).map(record),
      },
    })),
  };
}
