/**
 * A business's revisions: of its schedule (table ScheduleRevision, bumped at commit by database
 * triggers on everything the owner's schedule shows: migration schedule_revision) and of what
 * call_brief shows of the business itself (BriefRevision: migration brief_revision). As text, the
 * count and the last bumping transaction's id: the id alone names one committed state, since a
 * transaction bumps a revision once and ids are never reused; '0' before the first bump.
 * Statements that check a credential read the schedule's beside (auth/keys.ts), and the
 * schedule's cache compares it (owners/schedule-cache.ts); call_brief keeps what it made of the
 * business by the brief's (owners/call-brief.ts).
 */
import { Prisma } from '../generated/prisma/client.js';

/** The revision of the row `alias` of a revision table, LEFT JOINed: absent is '0'. */
export const revisionOf = (alias: string) => Prisma.raw(`coalesce(${alias}."revision" || '.' || ${alias}."txid", '0')`);
