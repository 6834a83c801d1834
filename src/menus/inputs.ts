import { z } from 'zod';
import { contactFields, date, identifier, minutes, randomKey, text, weeklyWindow } from '../registry/fields.js';
import { daysInput } from '../core/hours.js';
import { MENU_ID } from '../core/menu-ids.js';

const menuId = (name: string) => z.string().regex(MENU_ID, `${name} must be 1-64 letters, digits, underscores or hyphens.`);

const business = identifier('business').describe('Business id (slug), e.g. from find_businesses.');

export const selectionSchema = z.object({
  service_id: menuId('service_id').describe('A service_id from service_menu.'),
  add_on_ids: z.array(menuId('add_on_ids')).max(12).default([]).describe('Add-ons the service allows.'),
  scent_id: menuId('scent_id').optional().describe('A scent the service allows.'),
});

const selections = z
  .array(selectionSchema)
  .min(1, 'selections must hold at least one service.')
  .max(8)
  .describe('Services (with add-ons, scent) done back to back.');

const bigInt = (name: string) => z.number().int(`${name} must be a whole number.`).min(0).max(Number.MAX_SAFE_INTEGER);

export const businessInfoInput = z.object({ business });

export const serviceMenuInput = z.object({ business });

export const estimateVisitInput = z.object({ business, selections });

export const visitTimesInput = z.object({
  business,
  selections,
  date: date('date').describe('The business-local day, YYYY-MM-DD.'),
  preferred_technician: text('preferred_technician', 80).optional().describe('A technician name from service_menu: only their starts.'),
  time_of_day: z
    .enum(['any', 'morning', 'afternoon', 'evening'])
    .default('any')
    .describe('Local start: morning before noon, afternoon noon to 5 pm, evening from 5 pm.'),
});

const visitFields = {
  business,
  selections,
  customer_name: text('customer_name', 100, 1).describe("The customer's name."),
  preferred_date: text('preferred_date', 10).optional().describe('Free text (e.g. 2026-12-02). Data.'),
  preferred_time: text('preferred_time', 80).optional().describe('Free text (e.g. "after 3 pm"). Data.'),
  preferred_technician: text('preferred_technician', 80).optional().describe('A technician from service_menu (not guaranteed).'),
  first_visit: z.enum(['first', 'returning', 'unspecified']).optional().describe('first, returning or unspecified.'),
  note: text('note', 500).optional().describe('A note for the business. Data.'),
  menu_revision: bigInt('menu_revision').describe('menu_revision from estimate_visit.'),
  expected_estimate_cents: bigInt('expected_estimate_cents').describe('estimate_cents from estimate_visit.'),
  customer_authorized: z.boolean().describe('True only once the customer approved the estimate.'),
  customer_email: contactFields.customer_email.describe('How the business writes back; book_visit needs this or customer_phone.'),
  customer_phone: contactFields.customer_phone,
  request_key: randomKey('request_key').describe(
    'A new UUID per request, reused only to retry it; keep it private.',
  ),
};

export const requestVisitInput = z.object(visitFields);

export const bookVisitInput = z.object({
  ...visitFields,
  start: identifier('start', 50).describe('An exact start from visit_times (ISO 8601 with its offset or Z).'),
});

const visitId = identifier('visit_id', 80).describe('The visit_id.');

export const cancelVisitRequestInput = z.object({
  visit_id: visitId,
  inquiry_id: identifier('inquiry_id', 60).describe('The inquiry_id returned with the visit.'),
  reply_token: identifier('reply_token', 100).describe('Private; returned with the visit.'),
});

export const rescheduleVisitInput = cancelVisitRequestInput.extend({
  start: z.string().min(1, 'start is required.').max(50, 'start must be at most 50 characters.').describe('New start from visit_times.'),
});

const cents = (name: string) => z.number().int(`${name} must be a whole number of cents.`).min(0).max(1_000_000);

export const updateServiceMenuInput = z.object({
  menu_revision: bigInt('menu_revision').describe('menu_revision from service_setup.'),
  services: z
    .array(
      z.object({
        service_id: menuId('service_id').optional().describe("Keep an existing service's id; new ones may set one or get one from the name."),
        name: text('name', 80, 1),
        description: text('description', 500).optional(),
        price_kind: z.enum(['fixed', 'from', 'confirm']).describe('fixed and from need price_cents; confirm needs null.'),
        price_cents: cents('price_cents').nullable().default(null).describe('Integer cents; null for confirm.'),
        duration_minutes: minutes('duration_minutes', 5, 720).nullable().default(null).describe('Null while unknown (then the service can only be requested).'),
        group: text('group', 40).nullable().optional().describe('Treatment area: one service per group in a selection list.'),
        add_on_ids: z.array(menuId('add_on_ids')).max(50).default([]).describe('Add-ons customers may choose with this service.'),
        scent_ids: z.array(menuId('scent_ids')).max(30).default([]).describe('Scents customers may choose with this service.'),
      }),
    )
    .max(100)
    .describe('Every service of the menu; one left out is removed.'),
  add_ons: z
    .array(
      z.object({
        add_on_id: menuId('add_on_id').optional(),
        name: text('name', 80, 1),
        price_cents: cents('price_cents').nullable().default(null).describe('Null: staff price it.'),
        duration_minutes: minutes('duration_minutes', 0, 240).nullable().default(0).describe('Extra minutes; null while unknown.'),
      }),
    )
    .max(50)
    .default([])
    .describe('Every add-on of the menu; one left out is removed.'),
  scents: z.array(z.object({ scent_id: menuId('scent_id').optional(), name: text('name', 80, 1) })).max(30).default([]).describe('Every scent of the menu; one left out is removed.'),
});

export const updateStaffAvailabilityInput = z.object({
  scheduling_enabled: z.boolean().optional().describe('Staff scheduling (visit times, book_visit, confirmations) on or off; left out: unchanged.'),
  buffer_minutes: minutes('buffer_minutes', 0, 240).optional().describe('Free time after each visit; left out: unchanged.'),
  staff: z
    .array(
      z.object({
        staff_id: identifier('staff_id', 40).optional().describe('Keep an existing member (from service_setup); leave out for someone new.'),
        name: text('name', 80, 1),
        service_ids: z.array(menuId('service_ids')).max(100).default([]).describe('Menu service ids this person may perform.'),
        hours: z
          .union([z.array(weeklyWindow()).max(28), daysInput()])
          .default([])
          .describe(
            'Working hours, only inside opening hours (rest in outside_opening_hours). By weekday {monday: "09:00-12:00,13:00-17:00", sunday: "closed"} (other days keep theirs), or windows. Left out: none.',
          ),
        time_off: z
          .array(z.object({ start: identifier('start', 50), end: identifier('end', 50) }))
          .max(100)
          .default([])
          .describe('Ranges: ISO with an offset, business-local YYYY-MM-DDTHH:MM, or whole local dates YYYY-MM-DD (end date included).'),
      }),
    )
    .max(50)
    .describe('Every member of the team.'),
});

export const confirmVisitRequestInput = z.object({
  visit_id: visitId.describe('A pending visit request from service_setup.'),
  start: identifier('start', 50).describe('The exact start agreed (ISO 8601 with offset or Z).'),
  technician: text('technician', 80).optional().describe('The technician\'s staff_id or name.'),
  price_cents: cents('price_cents').optional().describe('The total agreed with the customer; needed when part of the visit is priced by staff.'),
  new_estimate_cents: cents('new_estimate_cents')
    .optional()
    .describe('Only after stale_menu: the new estimate it named, to confirm at that price; the conversation tells the customer both prices.'),
});

export const cancelBusinessVisitInput = z.object({
  visit_id: visitId.describe('A visit from service_setup.'),
  message: text('message', 500, 1).optional().describe('Why, for the customer. Posted in the conversation.'),
});
