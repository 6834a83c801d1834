// Prints the Pothos schema to schema.graphql (checked in; a test fails when it is stale).
import { writeFileSync } from 'node:fs';
import { printedSchema } from '../src/schema.js';

writeFileSync(new URL('../schema.graphql', import.meta.url), printedSchema() + '\n');
