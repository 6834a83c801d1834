/**
 * Times and money in mails read as a person wrote them (issue 24): every mail of every kind a
 * booking, a service call, a visit or an appointment causes (confirmation, move, cancellation,
 * message, notices to the business) shows instants in the business's zone in words ("Tue, Nov 24,
 * 9:00 AM CST"), money as "$180.00", issues as words, and no ISO 8601 instant in its subject or
 * text. The .ics attachments keep their iCalendar times.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { bearer, businessKey, startApp, type TestApp } from '../helpers/harness.js';
import { salonForVisitsAndAppointments } from '../helpers/salon.js';

const ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d/;
/** "Tue, Nov 24, 9:00 AM CST" */
const WORDS_TIME = /\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun), (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}, \d{1,2}:\d\d (AM|PM) [A-Z]{2,4}\b/;
const SALON = demoIds.beautySanFrancisco;
const PLUMBER = demoIds.plumberAustin;
const CLEANER = demoIds.cleanerAustin;

let app: TestApp;
let salon: Record<string, string>;
let plumber: Record<string, string>;

const ok = async (name: string, input: Record<string, unknown> = {}, headers: Record<string, string> = {}) => {
  const r = await app.rest(name, input, headers);
  expect(r.status, `${name}: ${JSON.stringify(r.body)}`).toBe(200);
  return r.body;
};

/** Every mail or text queued since `since`, in order. */
const mailsSince = (since: Date) => app.services.prisma.outboxMessage.findMany({ where: { createdAt: { gte: since } }, orderBy: { createdAt: 'asc' } });

/** The mails `act` queues: at least one, none with an ISO instant in its subject or text. */
async function mailsOf(what: string, act: () => Promise<unknown>) {
  const since = new Date(app.services.clock.now() - 1);
  const before = new Set((await mailsSince(since)).map((m) => m.id));
  await act();
  const mails = (await mailsSince(since)).filter((m) => !before.has(m.id));
  expect(mails.length, `${what} queued no mail`).toBeGreaterThan(0);
  for (const m of mails) {
    expect(m.subject, `${what}: subject to ${m.to}`).not.toMatch(ISO);
    expect(m.text, `${what}: text to ${m.to}`).not.toMatch(ISO);
    expect(`${m.subject}\n${m.text}`, `${what}: to ${m.to}`).not.toMatch(/\b(service_call|awaiting_payment|no_show|own_job|move_out|no_heat)\b/);
  }
  return mails;
}

beforeAll(async () => {
  app = await startApp({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  plumber = bearer(await businessKey(app, PLUMBER));
  salon = bearer(await businessKey(app, SALON));
  await salonForVisitsAndAppointments(app, SALON, salon);
}, 120_000);
afterAll(async () => app?.close());

/** The customer's mail links the conversation page where the visit or appointment is checked, moved or cancelled. */
async function opensItsPage(text: string, ids: { inquiry_id: string; reply_token: string }) {
  const link = /on its page: (\S+)/.exec(text)?.[1];
  expect(link, text).toBe(app.services.links.conversation(ids.inquiry_id, ids.reply_token));
  const page = await app.get(new URL(link!).pathname);
  expect(page.status).toBe(200);
  expect(await page.text()).toMatch(/id="heading"/);
}

describe('times and money in mails, in words', () => {
  it('a cleaning: confirmation, message, move and cancellation', async () => {
    const job = { bedrooms: 2, bathrooms: 1.5 };
    const t = await ok('available_times', { pro_id: CLEANER, ...job, days: 14 });
    const later = (t.starts as string[]).filter((s) => Date.parse(s) - app.services.clock.now() > 48 * 3600_000);
    let made: { booking_id: string; manage_token: string } | undefined;
    const [confirmation] = await mailsOf('book_cleaning', async () => {
      made = await ok('book_cleaning', { pro_id: CLEANER, ...job, start: later[0], price: t.price, zip: demoIds.austinZip, customer_name: 'Robin Words', customer_email: 'robin.words@example.com', address: '1100 S Congress Ave, Austin TX' });
    });
    expect(confirmation!.text).toMatch(new RegExp(`Start: ${WORDS_TIME.source}`));
    expect(confirmation!.text).toMatch(new RegExp(`Confirm the booking by ${WORDS_TIME.source}`));
    expect(confirmation!.text).toMatch(/Price: \$\d+\.\d\d, firm/);
    // The calendar event keeps iCalendar's times.
    const invite = (confirmation!.attachments as { filename: string; content: string }[] | null)?.find((a) => a.filename.endsWith('.ics'));
    expect(invite?.content).toMatch(/DTSTART[^:]*:\d{8}T\d{6}/);

    const ids = { booking_id: made!.booking_id, manage_token: made!.manage_token };
    const [toBusiness] = await mailsOf('message_about_booking', () => ok('message_about_booking', { ...ids, message: 'Gate code 1234' }));
    expect(toBusiness!.text).toMatch(new RegExp(`starting ${WORDS_TIME.source}`));
    const moved = await mailsOf('reschedule_booking', () => ok('reschedule_booking', { ...ids, start: later[3] }));
    expect(moved[0]!.subject).toMatch(WORDS_TIME);
    expect(moved[0]!.text).toMatch(new RegExp(`moved from ${WORDS_TIME.source} to ${WORDS_TIME.source}`));
    const cancelled = await mailsOf('cancel_booking', () => ok('cancel_booking', ids));
    expect(cancelled.map((m) => m.to)).toContain('robin.words@example.com');
    expect(cancelled[0]!.text).toMatch(new RegExp(`starting ${WORDS_TIME.source}`));
  });

  it('a service call: the arrival window and the issue in words, the fee in dollars and cents; cancelled by the owner', async () => {
    const calls = await ok('find_service_call', { zip: demoIds.austinZip, trade: 'plumbing', issue: 'leak', days: 7 });
    const pro = calls.pros.find((p: { pro_id: string }) => p.pro_id === PLUMBER);
    let id = '';
    const [confirmation] = await mailsOf('book_service_call', async () => {
      id = (await ok('book_service_call', {
        pro_id: PLUMBER, trade: 'plumbing', issue: 'leak', start: pro.windows[1].start, price: pro.fee,
        customer_name: 'Sam Words', customer_email: 'sam.words@example.com', address: '1100 S Congress Ave, Austin TX', zip: demoIds.austinZip,
      })).booking_id;
    });
    expect(confirmation!.text).toMatch(new RegExp(`Arrival window: ${WORDS_TIME.source} to \\d{1,2}:\\d\\d [AP]M`));
    expect(confirmation!.text).toMatch(/Service-call fee: \$\d+\.\d\d\./);
    expect(confirmation!.text).toContain('Issue: leak');
    const [told] = await mailsOf('cancel_job', () => ok('cancel_job', { booking_id: id, message: 'Sorry, the van broke down.' }, plumber));
    expect(told!.subject).toMatch(WORDS_TIME);
    expect(told!.text).toMatch(new RegExp(`cancelled your booking starting ${WORDS_TIME.source}`));
  });

  it('a visit: booked (customer and business), moved and cancelled by the business', async () => {
    const selections = [{ service_id: 'mens', add_on_ids: [] }];
    const estimate = await ok('estimate_visit', { business: SALON, selections: JSON.stringify(selections) });
    const times = await ok('visit_times', { business: SALON, selections: JSON.stringify(selections), date: '2026-11-25' });
    let visit: { visit_id: string; inquiry_id: string; reply_token: string } | undefined;
    const booked = await mailsOf('book_visit', async () => {
      const r = await ok('book_visit', {
        business: SALON, selections, customer_name: 'Vic Words', customer_email: 'vic.words@example.com', menu_revision: estimate.menu_revision, expected_estimate_cents: estimate.estimate_cents,
        customer_authorized: true, request_key: 'mail-words-visit-00001', start: times.starts[0],
      });
      visit = { visit_id: r.visit?.visit_id ?? r.visit_id, inquiry_id: r.inquiry_id, reply_token: r.reply_token };
    });
    expect(booked.map((m) => m.to).sort()).toEqual([`hello@${SALON}.example`, 'vic.words@example.com'].sort());
    for (const m of booked) expect(m.text).toMatch(/Price \$40\.00/);
    for (const m of booked) expect(m.text).toMatch(WORDS_TIME);
    await opensItsPage(booked.find((m) => m.to === 'vic.words@example.com')!.text, visit!);
    const moved = await mailsOf('reschedule_visit', () => ok('reschedule_visit', { ...visit, start: times.starts[2] }));
    expect(moved.find((m) => m.to === 'vic.words@example.com')!.subject).toMatch(WORDS_TIME);
    await mailsOf('cancel_business_visit', () => ok('cancel_business_visit', { visit_id: visit!.visit_id, message: 'Ana is ill.' }, salon));
  });

  it('an appointment: booked (customer and business), moved and cancelled by the customer', async () => {
    const c = await ok('contact_business', { business: SALON, customer_name: 'Pat Words', customer_email: 'pat.words@example.com', message: 'An appointment, please.', request_type: 'appointment' });
    const times = await ok('appointment_times', { business: SALON, service_id: 'consult', date: '2026-11-27' });
    let id = '';
    const booked = await mailsOf('book_appointment', async () => {
      id = (await ok('book_appointment', { inquiry_id: c.inquiry_id, reply_token: c.reply_token, service_id: 'consult', start: times.starts[0], expected_price_cents: 2500, customer_authorized: true })).booking_id;
    });
    expect(booked.find((m) => m.to === `hello@${SALON}.example`)!.subject).toMatch(new RegExp(`New appointment: Pat Words, ${WORDS_TIME.source}`));
    for (const m of booked) expect(m.text).toMatch(WORDS_TIME);
    await opensItsPage(booked.find((m) => m.to === 'pat.words@example.com')!.text, c);
    const ids = { booking_id: id, inquiry_id: c.inquiry_id, reply_token: c.reply_token };
    await mailsOf('reschedule_appointment', () => ok('reschedule_appointment', { ...ids, start: times.starts[2] }));
    await mailsOf('cancel_appointment', () => ok('cancel_appointment', ids));
  });
});
