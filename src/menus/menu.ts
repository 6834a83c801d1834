/**
 * A menu business's service menu as data, and the pure rules of replacing it
 * (update_service_menu): ids are kept, prices agree with their kind, references resolve.
 */
import { invalid } from '../errors.js';
import { idFromName } from '../core/menu-ids.js';

export type PriceKind = 'fixed' | 'from' | 'confirm';

export interface MenuServiceData {
  id: string;
  name: string;
  description: string;
  priceKind: PriceKind;
  priceCents: number | null;
  durationMinutes: number | null;
  group: string | null;
  addOnIds: string[];
  scentIds: string[];
}

export interface MenuAddOnData {
  id: string;
  name: string;
  priceCents: number | null;
  durationMinutes: number | null;
}

export interface MenuScentData {
  id: string;
  name: string;
}

export interface MenuData {
  revision: number;
  services: MenuServiceData[];
  addOns: MenuAddOnData[];
  scents: MenuScentData[];
}

/** Gives every item an id: its own, or one made from its name that no other item uses. */
function withIds<T extends { id?: string; name: string }>(items: T[], what: string, prefix: string): (T & { id: string })[] {
  const given = new Set<string>();
  for (const item of items) {
    if (item.id === undefined) continue;
    if (given.has(item.id)) throw invalid(`${what} id "${item.id}" appears twice; every ${what} needs its own id.`);
    given.add(item.id);
  }
  const used = new Set(given);
  return items.map((item, i) => {
    if (item.id !== undefined) return { ...item, id: item.id };
    const base = idFromName(item.name, `${prefix}-${i + 1}`);
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
    used.add(id);
    return { ...item, id };
  });
}

export interface MenuUpdate {
  services: {
    service_id?: string;
    name: string;
    description?: string;
    price_kind: PriceKind;
    price_cents: number | null;
    duration_minutes: number | null;
    group?: string | null;
    add_on_ids: string[];
    scent_ids: string[];
  }[];
  add_ons: { add_on_id?: string; name: string; price_cents: number | null; duration_minutes: number | null }[];
  scents: { scent_id?: string; name: string }[];
}

/**
 * The menu an update asks for, checked: fixed and from need a price, confirm needs none; a
 * service's add-ons and scents exist in the same update. Items keep the ids they are given
 * (existing ids stay what they are); new items without one get an id made from the name.
 */
export function planMenu(update: MenuUpdate): Omit<MenuData, 'revision'> {
  const addOns = withIds(update.add_ons.map((a) => ({ ...a, id: a.add_on_id })), 'add-on', 'add-on').map((a) => ({
    id: a.id,
    name: a.name,
    priceCents: a.price_cents,
    durationMinutes: a.duration_minutes,
  }));
  const scents = withIds(update.scents.map((s) => ({ ...s, id: s.scent_id })), 'scent', 'scent').map((s) => ({ id: s.id, name: s.name }));
  const addOnIds = new Set(addOns.map((a) => a.id));
  const scentIds = new Set(scents.map((s) => s.id));
  const services = withIds(update.services.map((s) => ({ ...s, id: s.service_id })), 'service', 'service').map((s) => {
    const label = `Service "${s.id}" (${s.name})`;
    if (s.price_kind === 'confirm' && s.price_cents !== null) {
      throw invalid(`${label} is priced by staff (price_kind confirm), so its price_cents must be null.`);
    }
    if (s.price_kind !== 'confirm' && s.price_cents === null) {
      throw invalid(`${label} has price_kind ${s.price_kind}, which needs price_cents${s.price_kind === 'from' ? ' (the lowest price)' : ''}; use confirm when staff price it.`);
    }
    const missingAddOn = s.add_on_ids.find((id) => !addOnIds.has(id));
    if (missingAddOn) throw invalid(`${label} allows add-on "${missingAddOn}", which is not in add_ons. List it there (with that add_on_id) or remove it.`);
    const missingScent = s.scent_ids.find((id) => !scentIds.has(id));
    if (missingScent) throw invalid(`${label} allows scent "${missingScent}", which is not in scents. List it there (with that scent_id) or remove it.`);
    return {
      id: s.id,
      name: s.name,
      description: s.description ?? '',
      priceKind: s.price_kind,
      priceCents: s.price_cents,
      durationMinutes: s.duration_minutes,
      group: s.group?.trim() || null,
      addOnIds: [...new Set(s.add_on_ids)],
      scentIds: [...new Set(s.scent_ids)],
    };
  });
  return { services, addOns, scents };
}

/** Whether two menus say the same thing (an update that changes nothing keeps the revision). */
export function sameMenu(a: Omit<MenuData, 'revision'>, b: Omit<MenuData, 'revision'>): boolean {
  const canonical = (m: Omit<MenuData, 'revision'>) =>
    JSON.stringify([
      m.services.map((s) => [s.id, s.name, s.description, s.priceKind, s.priceCents, s.durationMinutes, s.group, s.addOnIds, s.scentIds]),
      m.addOns.map((x) => [x.id, x.name, x.priceCents, x.durationMinutes]),
      m.scents.map((x) => [x.id, x.name]),
    ]);
  return canonical(a) === canonical(b);
}
