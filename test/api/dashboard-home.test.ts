/**
 * The dashboard home at /app over HTTP (issue 24): the week's schedule read through the schedule
 * operation, in words; a draft number transfer finished from there (a fresh page link to the
 * same draft, signed in); its forms refused without their CSRF token or from another site.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { bearer, businessKey, startApp, type TestApp } from '../helpers/harness.js';
import { signInToDashboard } from '../helpers/dashboard.js';
import { planHelpers } from '../helpers/receptionist-plans.js';

const ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d/;

let app: TestApp;

beforeAll(async () => {
  app = await startApp({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
});
afterAll(async () => app?.close());

describe('the dashboard home', () => {
  it("shows today's and the week's entries from the schedule operation, in words", async () => {
    const key = bearer(await businessKey(app, demoIds.cleanerAustin));
    const schedule = (await app.rest('schedule', { days: 7 }, key)).body as { jobs: { booking_id: string; customer_name: string }[] };
    const owner = await signInToDashboard(app, demoIds.cleanerAustin);
    const res = await owner.get('/app');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<title>Sparkle &amp; Shine Cleaning dashboard · Porchlight</title>');
    expect(html).toContain('Today, Mon, Nov 23');
    expect(html).not.toMatch(ISO);
    // Every entry of the week the operation answers is on the page (the demo month has some).
    expect(schedule.jobs.length).toBeGreaterThan(0);
    for (const job of schedule.jobs) expect(html).toContain(`data-entry="${job.booking_id}"`);
    expect(html).toMatch(/\$\d+\.\d\d/);
    expect(html).toContain('id="calendar-feed-url"');
    // No transfer under way: no section for it.
    expect(html).not.toContain('id="transfer"');
  });

  it('finishes a draft number transfer: a fresh link to the same draft, only with the CSRF token and from this site', async () => {
    const h = planHelpers(app);
    const [slug] = await h.planless(1);
    const plan = await h.withPlan(slug!);
    const draft = await h.ok('rest', 'prepare_number_port', { number: '+15125550142', owner_requested: true }, plan.key);
    const owner = await signInToDashboard(app, slug!);
    const html = await (await owner.get('/app')).text();
    expect(html).toContain('id="transfer-form"');
    expect(html).toContain(`name="port_id" value="${draft.port_id}"`);
    expect(html).toMatch(/Moving <strong>\+15125550142<\/strong> to your AI receptionist is waiting for you/);

    expect((await owner.post('/app/number-transfer', { port_id: draft.port_id, csrf: '' })).status).toBe(403);
    expect((await owner.post('/app/number-transfer', { port_id: draft.port_id }, { origin: 'https://evil.example' })).status).toBe(403);
    const wrong = await owner.post('/app/number-transfer', { port_id: 'not-this-one' });
    expect(wrong.status).toBe(400);

    const go = await owner.post('/app/number-transfer', { port_id: draft.port_id });
    expect(go.status).toBe(303);
    const location = go.headers.get('location')!;
    expect(location).toMatch(/^\/app\/front-desk\/port\/fdport_/);
    const page = await owner.get(location);
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text).toContain(draft.port_id);
    expect(text).toContain('Authorise and send the transfer');
    // Still the same draft, still a draft: nothing was sent to the carrier.
    const port = await app.services.prisma.numberPort.findUniqueOrThrow({ where: { id: draft.port_id } });
    expect(port.status).toBe('draft');
  });
});
