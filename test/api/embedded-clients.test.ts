// The embedded database serves a second client (npm run manage-code, a benchmark, psql) beside a
// busy server: 16 concurrent bookings while that client reads in a loop, and both finish with
// nothing dropped.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { onPostgres, startApp, type TestApp } from '../helpers/harness.js';

describe.skipIf(onPostgres)('a second client of the embedded database beside bookings', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => app?.close());

  it('16 concurrent bookings and a reading client both finish', async () => {
    const found = await app.rest('find_cleaners', { zip: demoIds.austinZip, bedrooms: 2, bathrooms: 1, date: '2026-11-30' });
    expect(found.status).toBe(200);
    // A few starts per pro: some bookings may contend, which is part of the load.
    const slots = (found.body.cleaners as { pro_id: string; starts: string[] }[])
      .filter((c) => c.starts.length)
      .flatMap((c) => c.starts.slice(0, 4).map((start) => ({ pro_id: c.pro_id, start })))
      .slice(0, 16);
    expect(slots.length).toBe(16);

    const reader = new pg.Client({ host: app.services.config.dataDir, port: 5432, user: 'postgres', database: 'postgres' });
    const failures: Error[] = [];
    reader.on('error', (err) => failures.push(err));
    await reader.connect();
    let reading = true;
    let reads = 0;
    const readLoop = (async () => {
      while (reading) {
        await reader.query('SELECT count(*) FROM "Booking"');
        reads++;
      }
    })();

    const results = await Promise.all(
      slots.map((slot, i) =>
        app.rest('book_cleaning', {
          ...slot, bedrooms: 2, bathrooms: 1, zip: demoIds.austinZip, address: `${i} Embedded St`,
          customer_name: `Embedded ${i}`, customer_email: `embedded${i}@example.com`,
        }),
      ),
    );
    reading = false;
    await readLoop;
    await reader.end();

    expect(results.filter((r) => r.status >= 500)).toEqual([]);
    // A pro's later start may overlap its first once that is booked.
    for (const r of results) expect(r.status === 200 || r.body.code === 'time_unavailable', JSON.stringify(r.body)).toBe(true);
    expect(results.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(4);
    expect(failures).toEqual([]);
    expect(reads).toBeGreaterThan(0);
  }, 120_000);
});
