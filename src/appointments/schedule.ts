/**
 * Appointment times, as pure functions over the slot engine (availability/slots.ts), which does
 * the wall-clock and DST work. A business takes one appointment at a time: a start is open when
 * the whole appointment fits in one window that is both opening hours (set_hours) and appointment
 * hours (update_booking_setup, which may narrow opening hours, never widen them) on that local day, after the
 * notice, clear of blocked time and of every appointment that takes time now — confirmed ones,
 * and those awaiting payment while their hold runs. appointment_times lists exactly the starts
 * book_appointment accepts, since both ask the same question.
 */
import { isOpenStart, openStarts, type Busy, type WeeklyHours } from '../core/slots.js';
import { DAY, MINUTE } from '../core/time.js';
import { intersectHours } from '../core/hours.js';

/** Starts are offered on this grid of local minutes from the start of each window. */
export const APPOINTMENT_STEP_MINUTES = 15;
/** An appointment paid upfront holds its time this long for the payment, then lapses. */
export const PAYMENT_HOLD_MINUTES = 30;
/** Customers cancel themselves until this long before the start; later, the business does. */
export const SELF_CANCEL_MS = DAY;
/** How far ahead appointments are offered and taken. */
export const HORIZON_DAYS = 180;

export type AppointmentState = 'awaiting_payment' | 'confirmed' | 'cancelled' | 'lapsed' | 'refund_pending' | 'refunded' | 'refund_failed';

export interface HeldAppointment {
  start: number;
  end: number;
  status: AppointmentState;
  holdsTime: boolean;
  holdUntil: number | null;
}

/** Does this appointment take its time at `now`? An awaiting_payment hold stops at holdUntil. */
export function takesTime(a: Omit<HeldAppointment, 'start' | 'end'>, now: number): boolean {
  if (!a.holdsTime) return false;
  if (a.status === 'confirmed') return true;
  return a.status === 'awaiting_payment' && a.holdUntil !== null && a.holdUntil > now;
}

export interface AppointmentPlan {
  zone: string;
  /** The business's opening hours (set_hours). */
  openingHours: readonly WeeklyHours[];
  /** Appointment hours (update_booking_setup): only their part inside opening hours counts. */
  hours: readonly WeeklyHours[];
  /** The business's blocked time. */
  blocks: readonly Busy[];
  appointments: readonly HeldAppointment[];
  minNoticeMinutes: number;
  now: number;
  durationMinutes: number;
}

function query(plan: AppointmentPlan) {
  return {
    zone: plan.zone,
    hours: intersectHours(plan.openingHours, plan.hours),
    busy: [...plan.blocks, ...plan.appointments.filter((a) => takesTime(a, plan.now)).map((a) => ({ start: a.start, end: a.end }))],
    durationMinutes: plan.durationMinutes,
    now: plan.now,
    minNoticeMinutes: plan.minNoticeMinutes,
    stepMinutes: APPOINTMENT_STEP_MINUTES,
  };
}

/** Open starts on `days` local days from `date` (YYYY-MM-DD), ascending. */
export function appointmentStarts(plan: AppointmentPlan, date: string, days = 1): number[] {
  const horizon = plan.now + HORIZON_DAYS * DAY;
  return openStarts({ ...query(plan), date, days }).filter((s) => s <= horizon);
}

/** Can an appointment start at `start`? The same rules appointmentStarts lists by. */
export function canBook(plan: AppointmentPlan, start: number): boolean {
  return start <= plan.now + HORIZON_DAYS * DAY && isOpenStart(query(plan), start);
}

/** The span of instants whose local date may be `day` (days since 1970) in any zone. */
export const daySpan = (day: number, days = 1) => ({ from: (day - 1) * DAY, to: (day + days + 1) * DAY });

/** [start, end) of an appointment of `durationMinutes` starting at `start`. */
export const appointmentEnd = (start: number, durationMinutes: number) => start + durationMinutes * MINUTE;
