/**
 * Receptionist plans and numbers in tests: a plan bought on the payment sandbox, answers and
 * refusals on every surface, the front-desk page's form sent, the carrier's time passed, and a
 * carrier that answers differently from the sandbox for one test.
 */
import { expect } from 'vitest';
import { errorStatus, type ErrorCode } from '../../src/errors.js';
import { TEST_CARDS } from '../../src/payments/sandbox.js';
import type { Carrier } from '../../src/phone/carrier.js';
import { bearer, businessKey, type TestApp } from './harness.js';
import { call, SURFACES, type Surface } from './surfaces.js';
import { signInToDashboard, testBill } from './dashboard.js';
import { hashToken } from '../../src/auth/tokens.js';

export function planHelpers(app: TestApp) {
  async function ok(via: Surface, name: string, input: Record<string, unknown>, headers: Record<string, string>) {
    const r = await call(app, via, name, input, headers);
    expect(r.ok, `${name} via ${via}: ${JSON.stringify(r.body)}`).toBe(true);
    return r.body;
  }

  /** The same refusal on every surface: REST answers the code's status, MCP and GraphQL carry the code. */
  async function refused(name: string, input: Record<string, unknown>, code: ErrorCode, message: RegExp | undefined, headers: Record<string, string>, surfaces: readonly Surface[] = SURFACES) {
    for (const via of surfaces) {
      let r: { ok: boolean; body: unknown; code?: string; error?: string };
      if (via === 'rest') {
        const res = await app.rest(name, input, headers);
        expect(res.status, `${name} via rest: ${JSON.stringify(res.body)}`).toBe(errorStatus[code]);
        r = { ok: false, body: res.body, code: res.body.code, error: res.body.error };
      } else r = await call(app, via, name, input, headers);
      expect(r.ok, `${name} via ${via} should be refused: ${JSON.stringify(r.body)}`).toBe(false);
      expect(r.code, `${name} via ${via}: ${r.error}`).toBe(code);
      if (message) expect(r.error).toMatch(message);
    }
  }

  /** A business of the demo with a plan bought in the test: its id and a fresh owner key. */
  async function withPlan(slug: string) {
    const key = bearer(await businessKey(app, slug));
    const { url } = await ok('rest', 'receptionist_checkout', { owner_approved: true }, key);
    const paid = await app.get(new URL(url).pathname, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ card_number: TEST_CARDS.pays, expiry: '12/30', cvc: '123', name: 'Owner Pays' }),
    });
    expect(paid.status).toBe(303);
    await app.services.payments.sandbox!.flush();
    expect((await ok('rest', 'receptionist_service', {}, key)).plan.status).toBe('active');
    const { id } = await app.services.prisma.business.findUniqueOrThrow({ where: { slug } });
    return { id, key };
  }

  /** Demo businesses with no plan yet, in a stable order. */
  async function planless(count: number, kind: 'cleaning' | 'plumbing' | 'hvac' = 'cleaning') {
    const rows = await app.services.prisma.business.findMany({ where: { kind, receptionistBilling: null }, orderBy: { slug: 'asc' }, take: count, select: { slug: true } });
    expect(rows).toHaveLength(count);
    return rows.map((r) => r.slug);
  }

  /** The owner of the business a transfer page belongs to, signed in to the dashboard. */
  async function portOwner(dashboardUrl: string) {
    const token = new URL(dashboardUrl).pathname.split('/').pop()!;
    const port = await app.services.prisma.numberPort.findUniqueOrThrow({ where: { pageTokenHash: hashToken(token) }, select: { business: { select: { slug: true } } } });
    return signInToDashboard(app, port.business.slug);
  }

  /** The front-desk transfer page, as its owner sees it. */
  const portPage = async (dashboardUrl: string) => (await portOwner(dashboardUrl)).get(new URL(dashboardUrl).pathname);

  /** Sends the front-desk page's form, as the owner would (signed in to the dashboard). */
  const sendPortForm = async (dashboardUrl: string) =>
    (await portOwner(dashboardUrl)).post(new URL(dashboardUrl).pathname, {
      customer_name: 'Owner Co', authorised_person: 'Alex Owner', authorised_email: 'alex@example.com', street: '1100 S Congress Ave', city: 'Austin', state: 'TX', zip: '78704', account_number: 'ACCT-4455', pin: '2468', consent: 'yes', bill: testBill(),
    });

  /** The carrier sandbox's transfer time passes for every port request it holds. */
  async function portsComplete() {
    for (const row of await app.services.prisma.sandboxCarrierObject.findMany({ where: { type: 'port', status: 'submitted' } })) {
      await app.services.prisma.sandboxCarrierObject.update({ where: { id: row.id }, data: { data: { ...(row.data as object), completesAt: 0 } } });
    }
  }

  /**
   * Until the returned function is called, the carrier answers as `overrides` say and as the
   * sandbox does otherwise (a carrier with other answers than the sandbox's).
   */
  function carrierAnswering(overrides: Partial<Carrier>): () => void {
    const phone = app.services.phone;
    const original = phone.carrier;
    phone.carrier = Object.assign(Object.create(original) as Carrier, overrides);
    return () => {
      phone.carrier = original;
    };
  }

  return { ok, refused, withPlan, planless, portPage, sendPortForm, portsComplete, carrierAnswering };
}
