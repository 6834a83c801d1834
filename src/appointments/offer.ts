import type { MenuState } from '../menus/store.js';
import { accountReady, usableAccount } from '../payments/accounts.js';
import type { PaymentProvider } from '../payments/provider.js';
import type { BookableService } from './plan.js';

/** The services a customer can book now: none without hours; free ones, and upfront ones while the payment account is ready. */
export function bookableServices(state: Pick<MenuState, 'appointments'>, provider: Pick<PaymentProvider, 'name'>): BookableService[] {
  if (state.appointments.hours.length === 0) return [];
  const ready = accountReady(usableAccount(state.appointments.account, provider));
  return state.appointments.services.filter((s) => s.payment === 'none' || ready);
}

/** What business_info says of appointments: none, book (nothing paid through Porchlight) or upfront (some are paid when booked). */
export function appointmentOffer(state: Pick<MenuState, 'appointments'>, provider: Pick<PaymentProvider, 'name'>): 'none' | 'book' | 'upfront' {
  const services = bookableServices(state, provider);
  if (services.length === 0) return 'none';
  return services.some((s) => s.payment === 'upfront') ? 'upfront' : 'book';
}
