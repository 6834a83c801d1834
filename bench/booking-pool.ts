/** Cleaners with a ZIP each, as the booking pool draws from them. */
export const POOL_PROS_SQL = `SELECT b.slug, min(z.zip) AS zip FROM "Business" b JOIN "ServiceZip" z ON z."businessId" = b.id WHERE b.kind = 'cleaning' GROUP BY b.slug ORDER BY b.slug`;

export interface PoolStart {
  pro_id: string;
  zip: string;
  start: string;
}

/**
 * Distinct, non-overlapping open starts to book (a job length plus an hour apart, so no booking
 * in the pool blocks another), at least `wanted` of them, interleaved across cleaners so that
 * concurrent requests rarely contend for one business. `get` answers a path of the server.
 */
export async function bookingPool(get: (path: string) => Promise<Response>, pros: { slug: string; zip: string }[], now: string, wanted: number): Promise<PoolStart[]> {
  const pool: PoolStart[] = [];
  for (const p of pros) {
    if (pool.length >= wanted) break;
    let lastEnd = -Infinity;
    for (let offset = 0; offset < 63; offset += 21) {
      const date = new Date(Date.parse(now) + offset * 86_400_000).toISOString().slice(0, 10);
      const res = await get(`/api/v1/available_times?${new URLSearchParams({ pro_id: p.slug, bedrooms: '2', bathrooms: '1.5', days: '21', date })}`);
      if (!res.ok) break;
      const t = (await res.json()) as { starts: string[]; duration_minutes: number };
      const gap = (t.duration_minutes + 60) * 60_000;
      for (const s of t.starts) {
        const ms = Date.parse(s);
        if (ms < lastEnd) continue;
        pool.push({ pro_id: p.slug, zip: p.zip, start: s });
        lastEnd = ms + gap;
      }
    }
  }
  pool.sort((a, b) => a.start.localeCompare(b.start) || a.pro_id.localeCompare(b.pro_id));
  return pool;
}
