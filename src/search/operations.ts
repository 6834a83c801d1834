import { defineOperation } from '../registry/operation.js';
import { findCleanersService } from './service.js';
import { findServiceCallService } from './service-calls.js';
import { findBusinessesService } from './businesses.js';
import { findBusinessesInput, findCleanersInput, findServiceCallInput } from './inputs.js';
import { FindBusinessesResult, FindCleanersResult, FindServiceCallResult } from './types.js';

export const findCleaners = defineOperation({
  name: 'find_cleaners',
  domain: 'search',
  method: 'GET',
  auth: 'public',
  result: FindCleanersResult,
  resolve: findCleanersService,
  description:
    'Find house cleaners serving a ZIP or city (zip is more precise), each with a firm total (no added fees), its length, next open starts, checked profile links with ratings ' +
    '(best-effort, not endorsements; licences, insurance unchecked). More times: available_times; book with book_cleaning.',
  input: findCleanersInput,
  example: { input: { zip: '78704', bedrooms: 2, bathrooms: 1.5, clean_type: 'standard' } },
});

export const findServiceCall = defineOperation({
  name: 'find_service_call',
  domain: 'search',
  method: 'GET',
  auth: 'public',
  result: FindServiceCallResult,
  resolve: findServiceCallService,
  description:
    'Find plumbers or HVAC pros serving a ZIP or city: a firm service-call fee for the issue (visit and diagnosis, not the repair), open arrival windows, checked profile ' +
    'links with ratings (best-effort, not endorsements; licences, insurance unchecked). Relay `safety`: for gas smells, flooding or danger the user leaves and calls ' +
    '911 or the utility first. Book with book_service_call.',
  input: findServiceCallInput,
  example: { input: { zip: '78704', trade: 'plumbing', issue: 'leak', details: 'Water drips under the kitchen sink.' } },
});

export const findBusinesses = defineOperation({
  name: 'find_businesses',
  domain: 'search',
  method: 'GET',
  auth: 'public',
  result: FindBusinessesResult,
  resolve: findBusinessesService,
  description:
    'Find any local business near a ZIP or city (salons, garages, shops, cafés, cleaners, trades); use first when the user names a need, not a business. Entries: ' +
    'the business id (slug) for every operation, matching services with prices, what matched (matched_on; unmatched: words it lacks), next: operations that give times and book.',
  input: findBusinessesInput,
  example: { input: { city: 'San Francisco CA', query: 'haircut' } },
});

export const operations = [findCleaners, findServiceCall, findBusinesses];
