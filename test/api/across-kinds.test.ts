/**
 * One business, every kind of booking, through REST, MCP and GraphQL: pipeline counts visits and
 * appointments, call_brief quotes the menu and the appointment services and flags a knowledge page
 * that prices them otherwise, booking a visit or an appointment closes the same sign-in's other
 * conversations, and confirm_visit_request holds the estimate the customer authorised.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoIds } from '../../src/demo/generate.js';
import { bearer, businessKey, personalKey, startApp, type TestApp } from '../helpers/harness.js';
import { call, SURFACES, type Surface } from '../helpers/surfaces.js';

const SALON = demoIds.beautySanFrancisco;
const h = (hours: number) => hours * 60;
const MON_SAT = [1, 2, 3, 4, 5, 6];

let app: TestApp;
let owner: Record<string, string>;
let queries = 0;

const MENU = {
  services: [
    { service_id: 'womens', name: "Women's cut", price_kind: 'fixed', price_cents: 6500, duration_minutes: 60 },
    { service_id: 'mens', name: "Men's cut", price_kind: 'fixed', price_cents: 4000, duration_minutes: 30 },
    { service_id: 'highlights', name: 'Highlights', price_kind: 'from', price_cents: 12500, duration_minutes: 120 },
    { service_id: 'balayage', name: 'Balayage', price_kind: 'confirm', price_cents: null, duration_minutes: 180 },
  ],
  add_ons: [{ add_on_id: 'gloss', name: 'Gloss toner', price_cents: 2500, duration_minutes: 20 }],
  scents: [],
};
const APPOINTMENTS = [{ service_id: 'consult', name: 'Style consultation', price_cents: 2000, duration_minutes: 30, payment: 'none' }];

async function ok(via: Surface, name: string, input: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const r = await call(app, via, name, input, headers);
  expect(r.ok, `${name} via ${via}: ${JSON.stringify(r.body)}`).toBe(true);
  return r.body;
}

async function refused(via: Surface, name: string, input: Record<string, unknown>, code: string, headers: Record<string, string> = {}) {
  const r = await call(app, via, name, input, headers);
  expect(r.ok, `${name} via ${via}: ${JSON.stringify(r.body)}`).toBe(false);
  expect(r.code, `${name} via ${via}`).toBe(code);
  return r.error!;
}

beforeAll(async () => {
  app = await startApp({ env: { RATE_LIMIT_PER_MINUTE: '100000' }, onQuery: () => void queries++ });
  owner = bearer(await businessKey(app, SALON));
  const prisma = app.services.prisma;
  const salon = await prisma.business.findUniqueOrThrow({ where: { slug: SALON } });
  await prisma.weeklyHours.deleteMany({ where: { businessId: salon.id } });
  await prisma.weeklyHours.createMany({ data: MON_SAT.map((weekday) => ({ businessId: salon.id, weekday, startMinute: h(9), endMinute: h(19) })) });
  const setup = await ok('rest', 'service_setup', {}, owner);
  await ok('rest', 'update_service_menu', { menu_revision: setup.menu_revision, ...MENU }, owner);
  await ok('rest', 'update_staff_availability', {
    scheduling_enabled: true,
    buffer_minutes: 0,
    staff: [{ name: 'Ana', service_ids: ['womens', 'mens', 'highlights', 'balayage'], hours: MON_SAT.map((weekday) => ({ weekday, start_minute: h(9), end_minute: h(19) })), time_off: [] }],
  }, owner);
  const booking = await ok('rest', 'booking_setup', {}, owner);
  await ok('rest', 'update_booking_setup', {
    services: APPOINTMENTS,
    remove_service_ids: booking.services.map((s: { service_id: string }) => s.service_id).filter((id: string) => id !== 'consult'),
    hours: MON_SAT.map((weekday) => ({ weekday, start_minute: h(9), end_minute: h(17) })),
  }, owner);
});
afterAll(async () => app?.close());

/** Estimate, then the figures book_visit and request_visit take. */
async function visitInput(selections: object[], extra: Record<string, unknown> = {}) {
  const e = await ok('rest', 'estimate_visit', { business: SALON, selections: JSON.stringify(selections) });
  return {
    business: SALON, selections, customer_name: 'Alex Rivera', customer_email: 'alex@example.com', menu_revision: e.menu_revision, expected_estimate_cents: e.estimate_cents,
    customer_authorized: true, request_key: `key-${randomUUID()}`, ...extra,
  };
}

/** The `skip`th start visit_times offers for a selection, from 2026-11-30 on. */
async function visitStart(selections: object[], skip = 0): Promise<string> {
  const starts: string[] = [];
  for (let day = 30; day < 44 && starts.length <= skip; day++) {
    const date = new Date(Date.UTC(2026, 10, day)).toISOString().slice(0, 10);
    starts.push(...(await ok('rest', 'visit_times', { business: SALON, selections: JSON.stringify(selections), date })).starts);
  }
  expect(starts.length).toBeGreaterThan(skip);
  return starts[skip]!;
}

async function bookVisit(via: Surface, headers: Record<string, string> = {}) {
  const selections = [{ service_id: 'mens' }];
  return ok(via, 'book_visit', await visitInput(selections, { start: await visitStart(selections) }), headers);
}

async function contact(headers: Record<string, string> = {}, message = 'Do you have time next week?') {
  const c = await ok('rest', 'contact_business', { business: SALON, customer_name: 'Pat Doe', customer_email: 'pat@example.com', message, request_type: 'appointment' }, headers);
  return { inquiry_id: c.inquiry_id as string, reply_token: c.reply_token as string };
}

async function appointmentStart(): Promise<string> {
  for (let day = 30; day < 45; day++) {
    const date = new Date(Date.UTC(2026, 10, day)).toISOString().slice(0, 10);
    const r = await ok('rest', 'appointment_times', { business: SALON, service_id: 'consult', date });
    if (r.starts.length) return r.starts[0];
  }
  throw new Error('no appointment start');
}

async function bookAppointment(via: Surface, c: { inquiry_id: string; reply_token: string }, headers: Record<string, string> = {}) {
  return ok(via, 'book_appointment', { ...c, service_id: 'consult', start: await appointmentStart(), expected_price_cents: 2000, customer_authorized: true }, headers);
}

const kind = (report: { kinds: { kind: string }[] }, k: string) => report.kinds.find((x) => x.kind === k) as unknown as { requested: number; booked: number; cancelled: number; revenue: number };
const inquiryStatus = async (c: { inquiry_id: string; reply_token: string }) => (await ok('rest', 'inquiry_status', c)).status as string;

describe('pipeline', () => {
  it('counts menu visits and appointments with revenue per kind, on every surface', async () => {
    const before = await ok('rest', 'pipeline', {}, owner);
    expect(before.kinds.map((k: { kind: string }) => k.kind)).toEqual(['cleaning', 'service_call', 'own_job', 'visit', 'appointment']);
    await bookVisit('rest');
    await bookAppointment('rest', await contact());
    const pending = await ok('rest', 'request_visit', await visitInput([{ service_id: 'womens' }], { customer_email: undefined }), { 'x-user-email': 'req@example.com' });
    expect(pending.request.status).toBe('pending');
    for (const via of SURFACES) {
      const r = await ok(via, 'pipeline', {}, owner);
      expect(r.jobs_booked, via).toBe(before.jobs_booked + 2);
      expect(r.booked_value).toBe(before.booked_value + 40 + 20);
      expect(kind(r, 'visit')).toEqual({ ...kind(before, 'visit'), requested: kind(before, 'visit').requested + 2, booked: kind(before, 'visit').booked + 1, revenue: kind(before, 'visit').revenue + 40 });
      expect(kind(r, 'appointment')).toMatchObject({ requested: kind(before, 'appointment').requested + 1, booked: kind(before, 'appointment').booked + 1, revenue: kind(before, 'appointment').revenue + 20 });
      // Work booked through the service shows under porchlight, with no $5 fee for visits and appointments.
      const porchlight = r.platforms.find((p: { platform: string }) => p.platform === 'porchlight');
      expect(porchlight).toMatchObject({ spend: before.service_fees, booked: expect.any(Number) });
      expect(r.service_fees).toBe(before.service_fees);
    }
    expect((await ok('rest', 'my_business', {}, owner)).pipeline).toEqual(await ok('rest', 'pipeline', {}, owner));
  });

  it('reads the month in a fixed number of statements whatever the mix', async () => {
    const count = async () => {
      // Background deliveries (mail) are not the operation's statements.
      await app.services.outbox.flush();
      const from = queries;
      await ok('rest', 'pipeline', {}, owner);
      return queries - from;
    };
    const few = await count();
    await bookVisit('rest');
    await bookAppointment('rest', await contact());
    await ok('rest', 'request_visit', await visitInput([{ service_id: 'highlights' }], { customer_email: undefined }), { 'x-user-email': 'req2@example.com' });
    expect(await count()).toBe(few);
  });
});

describe('call_brief prices', () => {
  it('quotes the menu and the appointment services with their price kinds, and says they are authoritative', async () => {
    for (const via of SURFACES) {
      const b = await ok(via, 'call_brief', { phone: '+14155550100' }, owner);
      expect(b.prices).toEqual(
        expect.arrayContaining([
          { item: "Women's cut", price: 65, unit: 'fixed price', service_id: 'womens', price_kind: 'fixed', source: 'menu' },
          { item: 'Highlights', price: 125, unit: expect.stringMatching(/^from/), service_id: 'highlights', price_kind: 'from', source: 'menu' },
          { item: 'Balayage', price: null, unit: 'priced by staff', service_id: 'balayage', price_kind: 'confirm', source: 'menu' },
          { item: 'Gloss toner', price: 25, unit: 'add-on, fixed price', service_id: 'gloss', price_kind: 'fixed', source: 'menu_add_on' },
          { item: 'Style consultation', price: 20, unit: 'appointment, 30 minutes', service_id: 'consult', price_kind: 'fixed', source: 'appointment' },
        ]),
      );
      expect(b.prices_note).toMatch(/authoritative/);
    }
    // A cleaner's price list is still there.
    const cleaner = await ok('rest', 'call_brief', { phone: '+15125550100' }, bearer(await businessKey(app, demoIds.cleanerAustin)));
    expect(cleaner.prices[0]).toMatchObject({ item: 'Base price', source: 'price_list', service_id: null });
  });

  it('flags the prices the knowledge page states otherwise, from add_receptionist_source and update_receptionist to call_brief', async () => {
    const page = "Welcome to Velvet! Women's cut $30. Men's cut $40. Highlights from $150. Balayage $200. Call (415) 555-0134, 94110.";
    const conflicts = (p: 'draft' | 'published') => [
      { service: "Women's cut", price_kind: 'fixed', structured_price: 65, knowledge_price: 30, sentence: "Women's cut $30.", page: p },
      { service: 'Balayage', price_kind: 'confirm', structured_price: null, knowledge_price: 200, sentence: 'Balayage $200.', page: p },
    ];
    for (const via of SURFACES) {
      const added = await ok(via, 'add_receptionist_source', { note: `${page} (${via})` }, owner);
      expect(added.price_conflicts, via).toEqual(expect.arrayContaining(conflicts('draft')));
      expect(added.price_conflicts.every((c: { page: string }) => c.page === 'draft' || c.page === 'published')).toBe(true);
    }
    for (const via of SURFACES) {
      const r = await ok(via, 'update_receptionist', { draft: page, publish: true }, owner);
      expect(r.price_conflicts, via).toEqual([...conflicts('draft'), ...conflicts('published')]);
      const b = await ok(via, 'call_brief', { phone: '+14155550100' }, owner);
      expect(b.price_conflicts, via).toEqual(conflicts('published'));
    }
    // A page that agrees has none.
    const agreeing = await ok('rest', 'update_receptionist', { draft: "Women's cut $65.00. Consultations (Style consultation) $20.", publish: true }, owner);
    expect(agreeing.price_conflicts).toEqual([]);
    expect((await ok('graphql', 'call_brief', { phone: '+14155550100' }, owner)).price_conflicts).toEqual([]);
  });
});

describe('booking closes the same sign-in\'s other conversations', () => {
  it('book_visit closes an open conversation of the same sign-in, not its own', async () => {
    for (const via of SURFACES) {
      const me = bearer(await personalKey(app));
      const asked = await contact(me);
      const stranger = await contact();
      const v = await bookVisit(via, me);
      expect(await inquiryStatus(asked), via).toBe('closed');
      expect(await inquiryStatus({ inquiry_id: v.inquiry_id, reply_token: v.reply_token })).not.toBe('closed');
      // Without that sign-in nothing closes.
      expect(await inquiryStatus(stranger)).not.toBe('closed');
      // The visit is still cancelled through its own conversation.
      expect(v.visit.status).toBe('confirmed');
    }
  });

  it('book_appointment closes the other open conversations, keeping its own and one holding a live visit', async () => {
    for (const via of SURFACES) {
      const me = bearer(await personalKey(app));
      const visit = await bookVisit('rest', me);
      const asked = await contact(me);
      const through = await contact(me, 'I would like a consultation.');
      const booked = await bookAppointment(via, through, me);
      expect(booked.status).toBe('confirmed');
      expect(await inquiryStatus(asked), via).toBe('closed');
      expect(await inquiryStatus(through)).not.toBe('closed');
      expect(await inquiryStatus({ inquiry_id: visit.inquiry_id, reply_token: visit.reply_token })).not.toBe('closed');
      // The customer still cancels through the appointment's conversation.
      expect((await ok('rest', 'cancel_appointment', { booking_id: booked.booking_id, ...through })).status).toBe('cancelled');
    }
  });
});

describe('confirm_visit_request holds the authorised estimate', () => {
  async function setMensPrice(cents: number) {
    const setup = await ok('rest', 'service_setup', {}, owner);
    const services = setup.services.map((s: Record<string, unknown>) => (s.service_id === 'mens' ? { ...s, price_cents: cents } : s));
    await ok('rest', 'update_service_menu', { menu_revision: setup.menu_revision, services, add_ons: setup.add_ons, scents: setup.scents }, owner);
  }

  it('refuses a request the menu re-priced (stale_menu, old and new estimate) unless the owner names the new estimate; the customer is told', async () => {
    const requests = [];
    for (let i = 0; i < SURFACES.length; i++) {
      requests.push(await ok('rest', 'request_visit', await visitInput([{ service_id: 'mens' }], { customer_email: undefined }), { 'x-user-email': `stale${i}@example.com` }));
    }
    await setMensPrice(4200);
    try {
      for (const [i, via] of SURFACES.entries()) {
        const r = requests[i];
        const start = await visitStart([{ service_id: 'mens' }], i);
        const error = await refused(via, 'confirm_visit_request', { visit_id: r.request.visit_id, start }, 'stale_menu', owner);
        expect(error).toMatch(/\$40\.00[\s\S]*\$42\.00[\s\S]*new_estimate_cents 4200/);
        expect(await refused(via, 'confirm_visit_request', { visit_id: r.request.visit_id, start, new_estimate_cents: 4100 }, 'stale_menu', owner)).toMatch(/4200/);
        const confirmed = await ok(via, 'confirm_visit_request', { visit_id: r.request.visit_id, start, new_estimate_cents: 4200 }, owner);
        expect(confirmed.visit).toMatchObject({ status: 'confirmed', price_cents: 4200 });
        const said = (await ok('rest', 'inquiry_status', { inquiry_id: r.inquiry_id, reply_token: r.reply_token })).messages.at(-1);
        expect(said).toMatchObject({ from: 'business', text: expect.stringMatching(/Price \$42\.00\.\nThe menu changed since your request: the estimate was \$40\.00, it is now \$42\.00\./) });
      }
    } finally {
      await setMensPrice(4000);
    }
  });

  it('confirms at the authorised estimate when the menu changed elsewhere, and refuses a new_estimate_cents that is not it', async () => {
    const r = await ok('rest', 'request_visit', await visitInput([{ service_id: 'mens' }], { customer_email: undefined }), { 'x-user-email': 'same@example.com' });
    // Another service changes: the request's price does not.
    const setup = await ok('rest', 'service_setup', {}, owner);
    const services = setup.services.map((s: Record<string, unknown>) => (s.service_id === 'womens' ? { ...s, price_cents: 7000 } : s));
    await ok('rest', 'update_service_menu', { menu_revision: setup.menu_revision, services, add_ons: setup.add_ons, scents: setup.scents }, owner);
    const start = await visitStart([{ service_id: 'mens' }], 5);
    for (const via of SURFACES) {
      expect(await refused(via, 'confirm_visit_request', { visit_id: r.request.visit_id, start, new_estimate_cents: 4200 }, 'invalid_input', owner)).toMatch(/leave new_estimate_cents out/);
    }
    const confirmed = await ok('mcp', 'confirm_visit_request', { visit_id: r.request.visit_id, start }, owner);
    expect(confirmed.visit).toMatchObject({ status: 'confirmed', price_cents: 4000 });
  });
});
