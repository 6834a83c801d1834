import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { ZIP_DATA } from '../../src/search/zip-data.js';
import { zipDistance } from '../../src/search/zips.js';
import { zipDataFromPackage } from '../helpers/zips.js';

const zipcodes = createRequire(import.meta.url)('zipcodes') as { distance(a: string, b: string): number | null };

describe('ZIP data copied from the zipcodes package', () => {
  it('is exactly what the package says today (npm run zips rewrites it)', () => {
    expect(ZIP_DATA).toEqual(zipDataFromPackage());
  });

  it('measures distances as the package does, for every pair the data holds', () => {
    const zips = [...new Set(ZIP_DATA.cities.flatMap((c) => [...c.zips, ...c.around.zips].map((z) => z.zip)))];
    let pairs = 0;
    for (let i = 0; i < zips.length; i += 3) {
      for (let j = 0; j < zips.length; j += 5) {
        const theirs = zipcodes.distance(zips[i]!, zips[j]!);
        expect(zipDistance(zips[i]!, zips[j]!), `${zips[i]} ${zips[j]}`).toEqual(theirs);
        pairs++;
      }
    }
    expect(pairs).toBeGreaterThan(1000);
  });
});
