/**
 * Demo appointment booking for a few menu businesses, in three setups:
 * - upfront: services paid by card when booked, into a ready sandbox payment account, beside a
 *   free consultation;
 * - free: every service paid at the business (nothing through Porchlight);
 * - onboarding: free services, and a sandbox payment account whose onboarding the owner has not
 *   finished (customer_payment_onboarding gives the link to finish it).
 * Appointment hours are the business's own weekly hours. Nothing here depends on the clock.
 */

export type AppointmentTier = 'upfront' | 'free' | 'onboarding';
type Kind = 'auto_repair' | 'beauty' | 'retail' | 'food' | 'services';

/** The salon every demo and example books with: upfront payment, a ready account. */
export const demoAppointmentBusiness = 'velvet-hair-studio-san-francisco';

const TEMPLATES: Record<Kind, { id: string; name: string; cents: number; minutes: number }[]> = {
  beauty: [
    { id: 'style-consultation', name: 'Style consultation', cents: 0, minutes: 15 },
    { id: 'express-blow-dry', name: 'Express blow-dry', cents: 4500, minutes: 45 },
    { id: 'fringe-trim', name: 'Fringe trim', cents: 1500, minutes: 15 },
  ],
  auto_repair: [
    { id: 'free-inspection', name: 'Free 20-point inspection', cents: 0, minutes: 30 },
    { id: 'tire-rotation', name: 'Tire rotation', cents: 4000, minutes: 30 },
    { id: 'battery-test', name: 'Battery test', cents: 0, minutes: 15 },
  ],
  food: [
    { id: 'catering-consultation', name: 'Catering consultation', cents: 0, minutes: 30 },
    { id: 'tasting-session', name: 'Tasting session', cents: 3500, minutes: 45 },
  ],
  retail: [
    { id: 'personal-shopping', name: 'Personal shopping appointment', cents: 0, minutes: 45 },
    { id: 'gift-consultation', name: 'Gift consultation', cents: 0, minutes: 20 },
  ],
  services: [
    { id: 'intro-call', name: 'Introductory call', cents: 0, minutes: 15 },
    { id: 'consultation', name: 'Consultation', cents: 5000, minutes: 60 },
  ],
};

/** Which businesses take appointments, by trade and city (the first of each there). */
export const APPOINTMENT_TIERS: Partial<Record<`${Kind}:${'austin' | 'san_francisco' | 'san_jose'}`, AppointmentTier>> = {
  'beauty:san_francisco': 'upfront',
  'beauty:austin': 'upfront',
  'food:austin': 'upfront',
  'auto_repair:austin': 'free',
  'auto_repair:san_jose': 'free',
  'retail:san_francisco': 'free',
  'services:austin': 'free',
  'services:san_jose': 'onboarding',
};

export interface DemoAppointmentSet {
  appointmentServices: { businessId: string; id: string; position: number; name: string; priceCents: number; durationMinutes: number; payment: 'none' | 'upfront' }[];
  appointmentHours: { businessId: string; weekday: number; startMinute: number; endMinute: number }[];
  paymentAccounts: { businessId: string; provider: string; accountId: string; chargesEnabled: boolean; detailsSubmitted: boolean; statusAt: Date; createdAt: Date; updatedAt: Date }[];
  sandboxPaymentObjects: { id: string; type: string; status: string; idempotencyKey: string; data: object; createdAt: Date; updatedAt: Date }[];
}

export const emptyAppointmentSet = (): DemoAppointmentSet => ({ appointmentServices: [], appointmentHours: [], paymentAccounts: [], sandboxPaymentObjects: [] });

/** Adds one business's appointment services, hours and (for upfront and onboarding) sandbox payment account. */
export function addDemoAppointments(
  out: DemoAppointmentSet,
  b: { id: string; slug: string; name: string; kind: Kind; email: string; priceFactor: number; hours: readonly (readonly [weekday: number, start: number, end: number])[] },
  tier: AppointmentTier,
): void {
  TEMPLATES[b.kind].forEach((t, position) => {
    const priceCents = t.cents === 0 ? 0 : Math.round((t.cents * b.priceFactor) / 100) * 100;
    out.appointmentServices.push({ businessId: b.id, id: t.id, position, name: t.name, priceCents, durationMinutes: t.minutes, payment: tier === 'upfront' && priceCents > 0 ? 'upfront' : 'none' });
  });
  for (const [weekday, startMinute, endMinute] of b.hours) out.appointmentHours.push({ businessId: b.id, weekday, startMinute, endMinute });
  if (tier === 'free') return;
  // A fixed moment: the sandbox's records predate anything the clock does in the demo.
  const at = new Date('2026-01-01T00:00:00Z');
  const ready = tier === 'upfront';
  const accountId = `acct_sbx_demo_${b.slug.replace(/-/g, '_')}`;
  out.sandboxPaymentObjects.push({
    id: accountId,
    type: 'account',
    status: ready ? 'ready' : 'onboarding',
    // The key customer_payment_onboarding would have created it with.
    idempotencyKey: `account:porchlight-business-${b.id}`,
    data: { businessName: b.name, email: b.email, chargesEnabled: ready, detailsSubmitted: ready, ...(ready ? { bankLast4: '6789' } : {}) },
    createdAt: at,
    updatedAt: at,
  });
  out.paymentAccounts.push({ businessId: b.id, provider: 'sandbox', accountId, chargesEnabled: ready, detailsSubmitted: ready, statusAt: at, createdAt: at, updatedAt: at });
}
