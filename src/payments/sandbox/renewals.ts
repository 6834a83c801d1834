/**
 * Time passing at the provider: checkouts expire, subscriptions bought on the checkout page
 * renew as their periods end (billing the metered overage of the period past) or end.
 */
import type { Prisma } from '../../generated/prisma/client.js';
import {
  type Tx,
  newId,
  seconds,
  monthsAfter,
  type SessionData,
  type CustomerData,
  type SubscriptionData,
  type InvoiceData,
  type MeterEventData,
  day,
  SandboxStore,
  sessionObject,
  subscriptionObject,
  invoiceObject,
} from './records.js';

/** At most this many periods are renewed at once for one subscription (a server down for long). */
const MAX_RENEWALS = 24;

/**
 * What the provider does on its own as time passes: checkouts past their expiry expire, and
 * subscriptions whose period ended renew (or end, if set to cancel). Then webhooks due (new, or
 * retried after a failure) are delivered. Run by the server's sweep.
 */
export async function tick(sb: SandboxStore): Promise<void> {
  const due = await sb.prisma.sandboxPaymentObject.findMany({
    where: { type: { in: ['checkout_session', 'subscription'] }, status: { in: ['open', 'active'] }, expiresAt: { lte: sb.clock.date() } },
    select: { id: true, type: true },
    take: 200,
  });
  for (const s of due) {
    if (s.type === 'subscription') await renew(sb, s.id);
    else await expireSession(sb, s.id);
  }
  await sb.webhooks.flush();
}

/** Expires a session the clock ran out on, on a connected account or the platform's own. */
export async function expireSession(sb: SandboxStore, sessionId: string) {
  await sb.write(async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM "SandboxPaymentObject" WHERE "id" = ${sessionId} FOR UPDATE`;
    const session = await tx.sandboxPaymentObject.findFirst({ where: { id: sessionId, type: 'checkout_session' } });
    if (session?.status === 'open') await expire(sb, tx, session);
  });
}

export async function expire(sb: SandboxStore, tx: Tx, session: { id: string; accountId: string | null; expiresAt: Date | null; data: Prisma.JsonValue }) {
  const now = sb.clock.now();
  await tx.sandboxPaymentObject.update({ where: { id: session.id }, data: { status: 'expired', updatedAt: new Date(now) } });
  await sb.webhooks.queue(tx, 'checkout.session.expired', session.accountId, sessionObject({ ...session, status: 'expired' }, session.data as unknown as SessionData), now);
}

/** A subscription checkout was paid: the customer (new or known), the subscription and its first invoice. */
export async function subscribe(sb: SandboxStore, tx: Tx, session: { id: string; status: string; expiresAt: Date | null }, data: SessionData, now: number) {
  let customerId = data.customerId ?? null;
  if (!customerId) {
    customerId = newId('cus_sbx_', 14);
    const customer: CustomerData = { email: data.customerEmail ?? null };
    await tx.sandboxPaymentObject.create({ data: { id: customerId, type: 'customer', status: 'active', data: customer as unknown as Prisma.InputJsonObject, createdAt: new Date(now), updatedAt: new Date(now) } });
  }
  const subscriptionId = newId('sub_sbx_', 18);
  // Periods start on a whole second, as Stripe counts them: reports read and sent agree.
  const anchor = seconds(now) * 1000;
  const sub: SubscriptionData = { customerId, metadata: data.metadata, plan: data.plan!, anchor, period: 0, cancelAtPeriodEnd: false };
  const periodEnd = monthsAfter(anchor, 1);
  await tx.sandboxPaymentObject.create({
    data: { id: subscriptionId, type: 'subscription', status: 'active', expiresAt: new Date(periodEnd), data: sub as unknown as Prisma.InputJsonObject, createdAt: new Date(now), updatedAt: new Date(now) },
  });
  const paid: SessionData = { ...data, customerId, subscriptionId };
  await tx.sandboxPaymentObject.update({ where: { id: session.id }, data: { status: 'complete', data: paid as unknown as Prisma.InputJsonObject, updatedAt: new Date(now) } });
  const invoice = await issueInvoice(sb, tx, subscriptionId, sub, [{ description: sub.plan.name, amountCents: sub.plan.monthlyCents, periodStart: anchor, periodEnd }], now);
  // In the order Stripe usually sends them; the receiver copes with any order.
  await sb.webhooks.queue(tx, 'customer.subscription.created', null, subscriptionObject(subscriptionId, 'active', sub), now);
  await sb.webhooks.queue(tx, 'invoice.paid', null, invoice, now);
  await sb.webhooks.queue(tx, 'checkout.session.completed', null, sessionObject({ ...session, status: 'complete' }, paid), now);
}

export async function issueInvoice(sb: SandboxStore, tx: Tx, subscriptionId: string, sub: SubscriptionData, lines: InvoiceData['lines'], now: number) {
  const id = newId('in_sbx_', 18);
  const data: InvoiceData = { customerId: sub.customerId, subscriptionId, metadata: sub.metadata, lines, amountCents: lines.reduce((n, l) => n + l.amountCents, 0) };
  await tx.sandboxPaymentObject.create({ data: { id, type: 'invoice', status: 'paid', data: data as unknown as Prisma.InputJsonObject, createdAt: new Date(now), updatedAt: new Date(now) } });
  return invoiceObject(id, data);
}

/** Renews a subscription whose period ended (billing the metered minutes of the period past), or ends one set to cancel. */
export async function renew(sb: SandboxStore, subscriptionId: string) {
  await sb.write(async (tx) => {
    await tx.$executeRaw`SELECT 1 FROM "SandboxPaymentObject" WHERE "id" = ${subscriptionId} FOR UPDATE`;
    const row = await sb.object(tx, subscriptionId, 'subscription');
    const sub = row.data as unknown as SubscriptionData;
    const now = sb.clock.now();
    for (let i = 0; i < MAX_RENEWALS && row.status === 'active'; i++) {
      const start = monthsAfter(sub.anchor, sub.period);
      const end = monthsAfter(sub.anchor, sub.period + 1);
      if (end > now) break;
      if (sub.cancelAtPeriodEnd) {
        sub.endedAt = end;
        row.status = 'canceled';
        await tx.sandboxPaymentObject.update({ where: { id: row.id }, data: { status: 'canceled', data: sub as unknown as Prisma.InputJsonObject, updatedAt: new Date(now) } });
        await sb.webhooks.queue(tx, 'customer.subscription.deleted', null, subscriptionObject(row.id, 'canceled', sub), now);
        break;
      }
      const events = await tx.sandboxPaymentObject.findMany({ where: { type: 'meter_event', data: { path: ['customerId'], equals: sub.customerId } }, select: { data: true } });
      const minutes = events.map((e) => e.data as unknown as MeterEventData).filter((e) => e.at >= start && e.at < end).reduce((n, e) => n + e.minutes, 0);
      sub.period += 1;
      const next = monthsAfter(sub.anchor, sub.period + 1);
      const lines: InvoiceData['lines'] = [{ description: sub.plan.name, amountCents: sub.plan.monthlyCents, periodStart: end, periodEnd: next }];
      if (minutes > 0) lines.push({ description: `${minutes} minutes past the included ones, ${day(start)} to ${day(end)}`, amountCents: minutes * sub.plan.overageCentsPerMinute, periodStart: start, periodEnd: end });
      await tx.sandboxPaymentObject.update({ where: { id: row.id }, data: { expiresAt: new Date(next), data: sub as unknown as Prisma.InputJsonObject, updatedAt: new Date(now) } });
      const invoice = await issueInvoice(sb, tx, row.id, sub, lines, now);
      await sb.webhooks.queue(tx, 'invoice.paid', null, invoice, now);
      await sb.webhooks.queue(tx, 'customer.subscription.updated', null, subscriptionObject(row.id, 'active', sub), now);
    }
  });
}
