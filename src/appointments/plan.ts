/**
 * The pure rules of update_booking_setup: services sent are added or replaced by service_id
 * (other services are kept unless removed), ids are kept or made from names, hours are whole
 * weekly windows that never overlap, and a service paid upfront has a price a card can carry.
 */
import { invalid } from '../errors.js';
import { idFromName } from '../core/menu-ids.js';
import type { WeeklyHours } from '../core/slots.js';
import type { MinuteWindow } from '../core/hours.js';

export type PaymentTiming = 'none' | 'upfront';

export interface BookableService {
  id: string;
  name: string;
  priceCents: number;
  durationMinutes: number;
  payment: PaymentTiming;
}

export interface BookingSetupUpdate {
  services?: { service_id?: string; name: string; price_cents: number; duration_minutes: number; payment: PaymentTiming }[];
  remove_service_ids?: string[];
  hours?: MinuteWindow[];
}

/** Card payments below this are refused by card networks (Stripe's minimum for USD). */
export const MIN_UPFRONT_CENTS = 50;
export const MAX_SERVICES = 50;

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

/** Weekly windows sorted, each inside its day, none overlapping another of the same day. */
export function planHours(hours: NonNullable<BookingSetupUpdate['hours']>): WeeklyHours[] {
  const windows = hours
    .map((h) => ({ weekday: h.weekday, startMinute: h.start_minute, endMinute: h.end_minute }))
    .sort((a, b) => a.weekday - b.weekday || a.startMinute - b.startMinute);
  for (const [i, w] of windows.entries()) {
    if (w.endMinute <= w.startMinute) throw invalid(`hours: the ${WEEKDAYS[w.weekday]} window ${hhmm(w.startMinute)}-${hhmm(w.endMinute)} ends before it starts.`);
    const prev = windows[i - 1];
    if (prev && prev.weekday === w.weekday && prev.endMinute > w.startMinute) {
      throw invalid(`hours: two ${WEEKDAYS[w.weekday]} windows overlap (${hhmm(prev.startMinute)}-${hhmm(prev.endMinute)} and ${hhmm(w.startMinute)}-${hhmm(w.endMinute)}); send them as one.`);
    }
  }
  return windows;
}

/** The service list after an update: sent ones replace theirs or are added, removed ones go, the rest stay in order. */
export function planServices(current: readonly BookableService[], update: Pick<BookingSetupUpdate, 'services' | 'remove_service_ids'>): BookableService[] {
  const sent = update.services ?? [];
  const remove = new Set(update.remove_service_ids ?? []);
  const known = new Set(current.map((s) => s.id));
  for (const id of remove) if (!known.has(id)) throw invalid(`remove_service_ids: there is no service "${id}"; booking_setup lists the service ids.`);
  const given = new Set<string>();
  for (const s of sent) {
    if (s.service_id === undefined) continue;
    if (given.has(s.service_id)) throw invalid(`services: service_id "${s.service_id}" appears twice.`);
    if (remove.has(s.service_id)) throw invalid(`services: "${s.service_id}" is both sent and in remove_service_ids.`);
    given.add(s.service_id);
  }
  for (const s of sent) {
    if (s.payment === 'upfront' && s.price_cents < MIN_UPFRONT_CENTS) {
      throw invalid(`services: "${s.name}" is paid upfront, so its price must be at least $0.50 (a free service uses payment none).`);
    }
  }
  const used = new Set([...known, ...given]);
  const withIds = sent.map((s, i) => {
    let id = s.service_id;
    if (id === undefined) {
      const base = idFromName(s.name, `service-${i + 1}`);
      id = base;
      for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
      used.add(id);
    }
    return { id, name: s.name, priceCents: s.price_cents, durationMinutes: s.duration_minutes, payment: s.payment };
  });
  const byId = new Map(withIds.map((s) => [s.id, s]));
  const kept = current.filter((s) => !remove.has(s.id)).map((s) => byId.get(s.id) ?? s);
  const added = withIds.filter((s) => !known.has(s.id));
  const services = [...kept, ...added];
  if (services.length > MAX_SERVICES) throw invalid(`A business offers at most ${MAX_SERVICES} appointment services; remove some with remove_service_ids.`);
  return services;
}
