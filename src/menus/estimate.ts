/**
 * Itemised estimates for a selection list, and why a selection can only be requested. Pure:
 * the menu and the team come in, integer cents and reasons come out.
 */
import { invalid, notFound } from '../errors.js';
import type { MenuData, PriceKind } from './menu.js';
import { qualifiedFor } from './schedule.js';

export interface Selection {
  service_id: string;
  add_on_ids: string[];
  scent_id?: string;
}

export interface EstimateAddOn {
  addOnId: string;
  name: string;
  /** Null: staff price it. */
  priceCents: number | null;
  durationMinutes: number | null;
}

export interface EstimateItem {
  serviceId: string;
  name: string;
  priceKind: PriceKind;
  /** The service's own price: exact (fixed), the lowest (from), or null (confirm). */
  priceCents: number | null;
  /** The service's own minutes, null while unknown. */
  durationMinutes: number | null;
  group: string | null;
  addOns: EstimateAddOn[];
  scent: { scentId: string; name: string } | null;
  /** What is known of this item's price: the service's price (or its lower bound) and priced add-ons. */
  subtotalCents: number;
  /** Staff still have to price something in this item. */
  partial: boolean;
}

export interface Estimate {
  menuRevision: number;
  estimateCents: number;
  partial: boolean;
  /** The whole sequential visit; null while any part's duration is unknown. */
  durationMinutes: number | null;
  items: EstimateItem[];
  serviceIds: string[];
}

const listOf = (ids: string[]) => (ids.length ? ids.map((id) => `"${id}"`).join(', ') : 'none');

/**
 * The itemised estimate of a selection list against a menu. Refuses, naming the offending id,
 * unknown services, a service chosen twice, two services of one group (treatment area), and
 * add-ons or scents the chosen service does not allow.
 */
export function estimateVisit(menu: MenuData, selections: readonly Selection[]): Estimate {
  const services = new Map(menu.services.map((s) => [s.id, s]));
  const addOns = new Map(menu.addOns.map((a) => [a.id, a]));
  const scents = new Map(menu.scents.map((s) => [s.id, s]));
  const groups = new Map<string, string>();
  const seen = new Set<string>();
  const items = selections.map((sel): EstimateItem => {
    const service = services.get(sel.service_id);
    if (!service) throw notFound(`This menu (menu_revision ${menu.revision}) has no service "${sel.service_id}". Use a service_id from service_menu.`);
    if (seen.has(service.id)) throw invalid(`Service "${service.id}" is selected twice; a visit holds each service once.`);
    seen.add(service.id);
    if (service.group) {
      const other = groups.get(service.group);
      if (other) {
        throw invalid(`Services "${other}" and "${service.id}" are both in the group "${service.group}" (one treatment area): choose one of them.`);
      }
      groups.set(service.group, service.id);
    }
    const chosen = new Set<string>();
    const itemAddOns = sel.add_on_ids.map((id): EstimateAddOn => {
      const addOn = addOns.get(id);
      if (!addOn || !service.addOnIds.includes(id)) {
        throw invalid(`Add-on "${id}" cannot be chosen with service "${service.id}"; its add-ons are: ${listOf(service.addOnIds)}.`);
      }
      if (chosen.has(id)) throw invalid(`Add-on "${id}" is listed twice for service "${service.id}".`);
      chosen.add(id);
      return { addOnId: addOn.id, name: addOn.name, priceCents: addOn.priceCents, durationMinutes: addOn.durationMinutes };
    });
    let scent: EstimateItem['scent'] = null;
    if (sel.scent_id !== undefined) {
      const found = scents.get(sel.scent_id);
      if (!found || !service.scentIds.includes(sel.scent_id)) {
        throw invalid(`Scent "${sel.scent_id}" cannot be chosen with service "${service.id}"; its scents are: ${listOf(service.scentIds)}.`);
      }
      scent = { scentId: found.id, name: found.name };
    }
    const partial = service.priceKind !== 'fixed' || itemAddOns.some((a) => a.priceCents === null);
    const subtotalCents = (service.priceCents ?? 0) + itemAddOns.reduce((sum, a) => sum + (a.priceCents ?? 0), 0);
    return {
      serviceId: service.id,
      name: service.name,
      priceKind: service.priceKind,
      priceCents: service.priceCents,
      durationMinutes: service.durationMinutes,
      group: service.group,
      addOns: itemAddOns,
      scent,
      subtotalCents,
      partial,
    };
  });
  const minutes = items.flatMap((i) => [i.durationMinutes, ...i.addOns.map((a) => a.durationMinutes)]);
  return {
    menuRevision: menu.revision,
    estimateCents: items.reduce((sum, i) => sum + i.subtotalCents, 0),
    partial: items.some((i) => i.partial),
    durationMinutes: minutes.some((m) => m === null) ? null : (minutes as number[]).reduce((a, b) => a + b, 0),
    items,
    serviceIds: items.map((i) => i.serviceId),
  };
}

const names = (items: string[]) => (items.length === 1 ? items[0]! : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/**
 * Why this selection can only be requested (staff confirm a time), or null when it can be
 * booked: staff scheduling on, every price fixed, every duration known, and a technician who
 * does all of it.
 */
export function requestOnlyReason(estimate: Estimate, setup: { schedulingEnabled: boolean }, team: readonly { serviceIds: readonly string[] }[]): string | null {
  const reasons: string[] = [];
  if (!setup.schedulingEnabled) reasons.push('the business has not enabled staff scheduling');
  const unknownTime = estimate.items.filter((i) => i.durationMinutes === null || i.addOns.some((a) => a.durationMinutes === null)).map((i) => i.name);
  if (unknownTime.length) reasons.push(`the duration of ${names(unknownTime)} is not known yet`);
  const staffPriced = estimate.items.filter((i) => i.partial).map((i) => (i.priceKind === 'from' ? `${i.name} (priced from)` : i.name));
  if (staffPriced.length) reasons.push(`staff confirm the price of ${names(staffPriced)}`);
  if (setup.schedulingEnabled && !team.some((t) => qualifiedFor(t, estimate.serviceIds))) {
    reasons.push(estimate.items.length > 1 ? `no one technician does ${names(estimate.items.map((i) => i.name))} in one visit` : `no technician does ${estimate.items[0]!.name}`);
  }
  return reasons.length ? `${reasons.join('; ')}.` : null;
}
