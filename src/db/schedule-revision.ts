/**
 * A business's schedule revision (table ScheduleRevision, bumped at commit by database triggers
 * on everything the owner's schedule shows: migration schedule_revision). As text, the count and
 * the last bumping transaction's id: the id alone names one committed state, since a transaction
 * bumps it once and ids are never reused; '0' before the first bump. Statements that check a
 * credential read it beside (auth/keys.ts), and the schedule's cache compares it
 * (owners/schedule-cache.ts).
 */
import { Prisma } from '../generated/prisma/client.js';

/** The revision of the row `alias` of "ScheduleRevision" (LEFT JOINed: absent is '0'). */
export const scheduleRevisionOf = (alias: string) => Prisma.raw(`coalesce(${alias}."revision" || '.' || ${alias}."txid", '0')`);
