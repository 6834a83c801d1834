import { z } from 'zod';
import { builder } from '../builder.js';
import { defineOperation } from '../registry/operation.js';
import { calendarFeedByToken, rotateCalendarFeedService } from './feed.js';
import { CalendarFeedResult } from './types.js';

export const rotateCalendarFeed = defineOperation({
  name: 'rotate_calendar_feed',
  domain: 'calendar',
  method: 'POST',
  auth: 'owner',
  result: CalendarFeedResult,
  resolve: (_input, ctx) => rotateCalendarFeedService(ctx),
  annotations: { destructiveHint: true, idempotentHint: false },
  description:
    'Replace the private calendar feed URL (my_business calendar_feed_url) if it may have leaked: the old one stops at once; the owner subscribes ' +
    'to the new one.',
  input: z.object({}),
  example: { input: {} },
});

export const operations = [rotateCalendarFeed];

// Behind the feed's URL (/calendar/<token>.ics); guarded like a public read. Any bad token is not_found.
builder.queryField('calendarFeed', (t) =>
  t.string({
    access: 'public',
    description: 'The iCalendar text of the feed with this token (the URL my_business shows).',
    args: { token: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => calendarFeedByToken(args.token, ctx),
  }),
);
