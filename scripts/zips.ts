// npm run zips: copies the live cities' ZIP records, and those around each city's demo ZIP, from
// the `zipcodes` package into src/search/data/zips.json (see src/search/zips.ts for why).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { zipDataFromPackage } from '../test/helpers/zips.js';

const target = fileURLToPath(new URL('../src/search/data/zips.json', import.meta.url));
const data = zipDataFromPackage();

/** One record a line, so a change in the package shows as a readable diff. */
function format(d: typeof data): string {
  const records = (zips: (typeof d.cities)[number]['zips'], pad: string) => `[\n${zips.map((z) => `${pad}  ${JSON.stringify(z)}`).join(',\n')}\n${pad}]`;
  const cities = d.cities.map((c) =>
    [
      '    {',
      `      "city": ${JSON.stringify(c.city)},`,
      `      "state": ${JSON.stringify(c.state)},`,
      `      "zips": ${records(c.zips, '      ')},`,
      `      "around": {`,
      `        "centre": ${JSON.stringify(c.around.centre)},`,
      `        "miles": ${c.around.miles},`,
      `        "zips": ${records(c.around.zips, '        ')}`,
      '      }',
      '    }',
    ].join('\n'),
  );
  return `{\n  "source": ${JSON.stringify(d.source)},\n  "cities": [\n${cities.join(',\n')}\n  ]\n}\n`;
}

// Data, not code: JSON that src/search/zip-data.ts imports (test/unit/zips.test.ts checks it).
writeFileSync(target, format(data));
console.log(`wrote ${target}: ${data.cities.map((c) => `${c.city} ${c.zips.length} + ${c.around.zips.length} around`).join(', ')}`);
