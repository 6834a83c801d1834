/**
 * How menus, estimates and visits are shown: to customers (names and prices, never staff
 * calendars) and to owners. One place, so every operation shows the same thing the same way.
 */
import { isoWithOffset } from '../core/time.js';
import type { Estimate, EstimateItem } from './estimate.js';
import type { MenuData } from './menu.js';
import { usd } from '../core/money.js';

/** A service as customers see it, with the add-ons and scents it allows. */
export function publicServices(menu: MenuData) {
  const addOns = new Map(menu.addOns.map((a) => [a.id, a]));
  const scents = new Map(menu.scents.map((s) => [s.id, s]));
  return menu.services.map((s) => ({
    serviceId: s.id,
    name: s.name,
    description: s.description,
    priceKind: s.priceKind,
    priceCents: s.priceCents,
    durationMinutes: s.durationMinutes,
    group: s.group,
    addOns: s.addOnIds.flatMap((id) => {
      const a = addOns.get(id);
      return a ? [{ addOnId: a.id, name: a.name, priceCents: a.priceCents, durationMinutes: a.durationMinutes }] : [];
    }),
    scents: s.scentIds.flatMap((id) => {
      const x = scents.get(id);
      return x ? [{ scentId: x.id, name: x.name }] : [];
    }),
  }));
}

export type PublicService = ReturnType<typeof publicServices>[number];

/** "Women's cut (+ Deep conditioning; scent: Lavender), Blow-dry" */
export function describeItems(items: readonly EstimateItem[]): string {
  return items
    .map((i) => {
      const extras = [...(i.addOns.length ? [`+ ${i.addOns.map((a) => a.name).join(', ')}`] : []), ...(i.scent ? [`scent: ${i.scent.name}`] : [])];
      return extras.length ? `${i.name} (${extras.join('; ')})` : i.name;
    })
    .join(', ');
}

/** The price sentence of an estimate: "$85.00", or "from $85.00 (staff confirm the final price)". */
export function describePrice(estimate: Pick<Estimate, 'estimateCents' | 'partial'>): string {
  return estimate.partial ? `from ${usd(estimate.estimateCents)} (staff confirm the final price)` : usd(estimate.estimateCents);
}

export interface VisitRow {
  id: string;
  status: string;
  source: string;
  selections: unknown;
  estimateCents: number;
  partial: boolean;
  priceCents: number | null;
  durationMinutes: number | null;
  start: Date | null;
  end: Date | null;
  technicianName: string | null;
  conversationId: string;
}

/** A visit as its customer sees it (the technician by name only). */
export function visitView(v: VisitRow, zone: string) {
  return {
    visitId: v.id,
    status: v.status,
    start: v.start ? isoWithOffset(v.start.getTime(), zone) : null,
    end: v.end ? isoWithOffset(v.end.getTime(), zone) : null,
    technician: v.technicianName,
    items: v.selections as EstimateItem[],
    estimateCents: v.estimateCents,
    partial: v.partial,
    priceCents: v.priceCents,
    durationMinutes: v.durationMinutes,
    inquiryId: v.conversationId,
  };
}

export type VisitView = ReturnType<typeof visitView>;
