import { builder } from '../builder.js';

export const CalendarFeedResult = builder.objectRef<{ calendarFeedUrl: string }>('CalendarFeedResult').implement({
  fields: (t) => ({
    calendarFeedUrl: t.exposeString('calendarFeedUrl', {
      description: 'The new private feed URL (iCalendar). The previous one no longer works. Anyone with it can read the schedule: share it only with your own calendar app.',
    }),
  }),
});
