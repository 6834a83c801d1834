import { lexicographicSortSchema, printSchema } from 'graphql';
import { builder } from './builder.js';
// Each domain adds its types and root fields beside its services.
import './search/schema.js';
import './availability/schema.js';
import './bookings/schema.js';
import './auth/schema.js';
import './owners/schema.js';
import './conversations/schema.js';
import './events/schema.js';

export const schema = builder.toSchema();
export const printedSchema = () => printSchema(lexicographicSortSchema(schema));
