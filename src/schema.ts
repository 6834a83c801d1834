import { lexicographicSortSchema, printSchema } from 'graphql';
import { builder } from './builder.js';
// The registry's entries register their root fields as they are defined; the rest (page and
// dashboard fields, subscriptions) sit in the same domain files.
import './operations.js';
import './auth/schema.js';

export const schema = builder.toSchema();
export const printedSchema = () => printSchema(lexicographicSortSchema(schema));
