/**
 * A number transfer through Twilio, end to end without network: the owner sends the dashboard
 * page (bill included), the SDK's requests are answered from recorded fixtures, Twilio's porting
 * webhook is accepted only with a valid signature and only prompts a read-back, and
 * receptionist_refresh makes the number the business's once Twilio says it is moved.
 */
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE, startApp, type TestApp } from '../helpers/harness.js';
import { planHelpers } from '../helpers/receptionist-plans.js';
import { signInToDashboard } from '../helpers/dashboard.js';
import { fake, SID, TOKEN } from '../helpers/twilio.js';

const KW = 'KW0123456789abcdef0123456789abcdef';
const NUMBER = '+15125550142';
const PATH = '/webhooks/carrier/port-in';

let app: TestApp;
let h: ReturnType<typeof planHelpers>;

beforeAll(async () => {
  app = await startApp({ env: { RATE_LIMIT_PER_MINUTE: '100000', TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN } });
  h = planHelpers(app);
});
afterAll(async () => app?.close());

/** Twilio's porting webhook: a JSON body signed through its bodySHA256 query parameter. */
function webhook(body: string, opts: { key?: string; signedBody?: string } = {}) {
  const query = `?bodySHA256=${twilio.getExpectedBodyHash(opts.signedBody ?? body)}`;
  const signature = twilio.getExpectedTwilioSignature(opts.key ?? TOKEN, `${BASE}${PATH}${query}`, {});
  return app.get(`${PATH}${query}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-twilio-signature': signature }, body });
}

describe('a number transfer through Twilio', () => {
  it('goes from the page to a PortIn request with the bill; the signed webhook and receptionist_refresh read it back until the number is active', async () => {
    const f = fake('portability', 'documents-create', 'port-in-create', 'port-in-fetch', 'port-in-fetch-completed', 'incoming-list-ported');
    app.services.phone.carrier = f.carrier;
    const [slug] = await h.planless(1);
    const b = await h.withPlan(slug!);
    const draft = await h.ok('rest', 'prepare_number_port', { number: NUMBER, owner_requested: true }, b.key);
    // A file that is not a PDF, PNG or JPEG (whatever its name says) is refused on the page, sending nothing.
    const owner = await signInToDashboard(app, slug!);
    const form = { customer_name: 'Owner Co', authorised_person: 'Alex Owner', authorised_email: 'alex@example.com', street: '1100 S Congress Ave', city: 'Austin', state: 'TX', zip: '78704', account_number: 'ACCT-4455', pin: '2468', consent: 'yes' };
    const notBill = await owner.post(new URL(draft.dashboard_url).pathname, { ...form, bill: new File(['<html>not a bill</html>'], 'bill.pdf', { type: 'application/pdf' }) });
    expect(notBill.status).toBe(400);
    expect(await notBill.text()).toContain('The bill must be a PDF, PNG or JPEG file');
    expect(f.left()).toBe(5);

    const page = await h.sendPortForm(draft.dashboard_url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('The transfer is with the carrier');
    expect(await app.services.prisma.numberPort.findUniqueOrThrow({ where: { id: draft.port_id } })).toMatchObject({ status: 'submitted', carrierRef: KW });

    const body = JSON.stringify({ port_in_request_sid: KW, port_in_request_status: 'Completed', event: 'PortInCompleted' });
    // Signed with another key, or a body other than the one signed: refused, nothing read from Twilio.
    expect((await webhook(body, { key: 'not-the-auth-token' })).status).toBe(403);
    expect((await webhook(body, { signedBody: body.replace('Completed', 'InProgress') })).status).toBe(403);
    expect(f.left()).toBe(3);

    // Signed: the request is read back from Twilio (waiting for the signature), whatever the message said.
    const accepted = await webhook(body);
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toEqual({ ok: true, known: true });
    expect(await app.services.prisma.numberPort.findUniqueOrThrow({ where: { id: draft.port_id } })).toMatchObject({ status: 'submitted', reason: expect.stringMatching(/Waiting for the signature/) });

    // Twilio says completed and holds the number: it is the business's receptionist number.
    expect((await h.ok('rest', 'receptionist_refresh', {}, b.key)).phone).toMatchObject({ status: 'active', number: NUMBER, port: { status: 'completed' } });
    expect(await app.services.prisma.receptionistNumber.findUniqueOrThrow({ where: { businessId: b.id } })).toMatchObject({ number: NUMBER, status: 'active', carrierRef: 'PN00000000000000000000000000000142' });
    expect(f.left()).toBe(0);
    expect(f.mismatches).toEqual([]);

    // A webhook for a transfer that is over (or unknown) reads nothing.
    expect(await (await webhook(body)).json()).toEqual({ ok: true, known: false });
  });
});
