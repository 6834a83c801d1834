import type { Operation } from './registry/contract.js';
import { operations as search } from './search/operations.js';
import { operations as availability } from './availability/operations.js';
import { operations as bookings } from './bookings/operations.js';
import { operations as owners } from './owners/operations.js';
import { operations as ownerSchedule } from './owners/schedule-operations.js';
import { operations as ownerJobs } from './owners/jobs-operations.js';
import { operations as callBrief } from './owners/call-brief-operations.js';
import { operations as leads } from './leads/operations.js';
import { operations as conversations } from './conversations/operations.js';
import { operations as events } from './events/operations.js';
import { operations as menus } from './menus/operations.js';
import { operations as receptionist } from './receptionist/operations.js';
import { operations as appointments } from './appointments/operations.js';
import { operations as payments } from './payments/operations.js';
import { operations as billing } from './billing/operations.js';
import { operations as phone } from './phone/operations.js';
import { operations as auth } from './auth/operations.js';
import { operations as calendar } from './calendar/operations.js';
import { operations as profileLinks } from './profile-links/operations.js';

/** The operation registry: REST routes, MCP tools and the OpenAPI document come from here. */
export const operations: Operation[] = [
  ...search,
  ...availability,
  ...bookings,
  ...owners,
  ...ownerSchedule,
  ...ownerJobs,
  ...callBrief,
  ...leads,
  ...conversations,
  ...events,
  ...menus,
  ...receptionist,
  ...appointments,
  ...payments,
  ...billing,
  ...phone,
  ...calendar,
  ...profileLinks,
  ...auth,
];

export const operationByName = new Map(operations.map((op) => [op.name, op]));
