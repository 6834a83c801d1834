import type { MenuState } from '../menus/store.js';
import type { WeeklyHours } from '../core/slots.js';
import { accountReady, usableAccount } from '../payments/accounts.js';
import type { PaymentProvider } from '../payments/provider.js';
import type { BookableService } from './plan.js';
import { intersectHours } from '../core/hours.js';

/** When appointments can start: appointment hours inside opening hours (no opening hours: never). */
type Offered = { business: { hours: readonly WeeklyHours[] }; appointments: Pick<MenuState['appointments'], 'services' | 'hours' | 'account'> };

export const bookingHours = (state: Offered) => intersectHours(state.business.hours, state.appointments.hours);

/** The services a customer can book now: none without bookable hours; free ones, and upfront ones while the payment account is ready. */
export function bookableServices(state: Offered, provider: Pick<PaymentProvider, 'name'>): BookableService[] {
  if (bookingHours(state).length === 0) return [];
  const ready = accountReady(usableAccount(state.appointments.account, provider));
  return state.appointments.services.filter((s) => s.payment === 'none' || ready);
}

/** What business_info says of appointments: none, book (nothing paid through Porchlight) or upfront (some are paid when booked). */
export function appointmentOffer(state: Offered, provider: Pick<PaymentProvider, 'name'>): 'none' | 'book' | 'upfront' {
  const services = bookableServices(state, provider);
  if (services.length === 0) return 'none';
  return services.some((s) => s.payment === 'upfront') ? 'upfront' : 'book';
}
