/**
 * The dashboard's home page at /app: today's and the week's schedule of every kind (from the
 * `schedule` operation, read as the signed-in owner), the Manage with AI code, the calendar feed's
 * address and a transfer of the owner's number still to finish. Times and money in words
 * (core/for-people.ts), in the business's zone. Everything shown comes from operations' results;
 * names, addresses, notes and notification texts are typed by people and only ever escaped.
 */
import { clockForPeople, dayForPeople, dollarsForPeople, instantsInWords, localDateOf, whenForPeople, wordsFor } from '../src/core/for-people.js';

/** A schedule entry as the `schedule` operation answers it (snake_case, the REST shape). */
export interface ScheduleEntry {
  booking_id: string;
  kind: string;
  status: string;
  start: string;
  end: string;
  customer_name: string;
  customer_phone: string | null;
  customer_email: string | null;
  address: string | null;
  price: number | null;
  fee: number | null;
  source: string;
  client_name: string | null;
  done: boolean;
  job: string;
  notes: string | null;
  details: string | null;
  technician: string | null;
}

export interface ScheduleBlock {
  block_id: string;
  whole_day: boolean;
  start_at: string;
  end_at: string;
  reason: string | null;
}

export interface ScheduleBody {
  jobs: ScheduleEntry[];
  awaiting_confirmation: ScheduleEntry[];
  blocks: ScheduleBlock[];
  time_zone: string;
  notifications: { type: string; at: string; text: string; read: boolean }[];
}

/** The owner's words for kinds and statuses (the customer's pages say "your confirmation"). */
const KINDS: Record<string, string> = {
  cleaning: 'Cleaning',
  service_call: 'Service call',
  own_job: 'Your own job',
  visit: 'Visit',
  appointment: 'Appointment',
};
const STATUSES: Record<string, string> = {
  pending: 'not yet confirmed by the customer',
  awaiting_payment: 'waiting for the customer to pay',
  confirmed: 'confirmed',
  done: 'done',
  no_show: 'no-show',
  cancelled: 'cancelled',
};

export interface EntryView {
  id: string;
  time: string;
  kind: string;
  status: string;
  job: string;
  customer: string;
  phone: string | null;
  email: string | null;
  address: string | null;
  money: string | null;
  technician: string | null;
  source: string | null;
  notes: string | null;
  details: string | null;
  block: boolean;
}

interface Item {
  at: number;
  day: string;
  view: EntryView;
}

export interface DayView {
  heading: string;
  entries: EntryView[];
}

const span = (start: string, end: string, zone: string) => {
  const from = clockForPeople(start, zone, false);
  const to = clockForPeople(end, zone, false);
  // "9:00 AM – 11:30 AM" reads better as "9:00 – 11:30 AM" when both halves share AM or PM.
  const same = from.slice(-2) === to.slice(-2) && localDateOf(start, zone) === localDateOf(end, zone);
  return `${same ? from.slice(0, -3) : from} – ${to}`;
};

function entryView(e: ScheduleEntry, zone: string): EntryView {
  const money =
    e.fee !== null ? `Service-call fee ${dollarsForPeople(e.fee)}; repairs quoted on site` : e.price !== null ? `${e.kind === 'visit' && e.status === 'pending' ? 'Estimate' : 'Price'} ${dollarsForPeople(e.price)}` : null;
  return {
    id: e.booking_id,
    time: e.kind === 'service_call' ? `Arrives ${span(e.start, e.end, zone)}` : span(e.start, e.end, zone),
    kind: `${KINDS[e.kind] ?? wordsFor(e.kind)}${e.source === 'own' && e.kind !== 'own_job' ? ', your own job' : ''}`,
    status: e.done ? 'done' : (STATUSES[e.status] ?? wordsFor(e.status)),
    job: e.job,
    customer: e.customer_name,
    phone: e.customer_phone,
    email: e.customer_email,
    address: e.address,
    money,
    technician: e.technician,
    source: e.source === 'own' ? null : e.client_name ? `Booked through ${e.client_name}` : 'Booked through Porchlight',
    notes: e.notes,
    details: e.details,
    block: false,
  };
}

function blockView(b: ScheduleBlock, zone: string): EntryView {
  return {
    id: b.block_id,
    time: b.whole_day ? 'All day' : span(b.start_at, b.end_at, zone),
    kind: 'Blocked time',
    status: '',
    job: b.reason ?? 'No customer can book this time.',
    customer: '',
    phone: null,
    email: null,
    address: null,
    money: null,
    technician: null,
    source: null,
    notes: null,
    details: null,
    block: true,
  };
}

export interface HomeView {
  zone: string;
  todayHeading: string;
  today: EntryView[];
  week: DayView[];
  awaiting: (EntryView & { when: string })[];
  notifications: { when: string; text: string }[];
}

/** Today's entries, and the rest of the next seven days by day, soonest first. */
export function homeView(s: ScheduleBody, now: number): HomeView {
  const zone = s.time_zone;
  const until = now + 7 * 24 * 3600_000;
  const items: Item[] = [
    ...s.jobs.map((e) => ({ at: Date.parse(e.start), day: localDateOf(e.start, zone), view: entryView(e, zone) })),
    ...s.blocks.filter((b) => Date.parse(b.start_at) < until).map((b) => ({ at: Math.max(Date.parse(b.start_at), now), day: localDateOf(Math.max(Date.parse(b.start_at), now), zone), view: blockView(b, zone) })),
  ].sort((a, b) => a.at - b.at);
  const today = localDateOf(now, zone);
  const days = new Map<string, DayView>();
  for (const item of items) {
    if (item.day === today) continue;
    let day = days.get(item.day);
    if (!day) days.set(item.day, (day = { heading: dayForPeople(item.at, zone), entries: [] }));
    day.entries.push(item.view);
  }
  return {
    zone,
    todayHeading: dayForPeople(now, zone),
    today: items.filter((i) => i.day === today).map((i) => i.view),
    week: [...days.values()],
    awaiting: s.awaiting_confirmation.map((e) => ({ ...entryView(e, zone), when: whenForPeople(e.start, zone, now) })),
    notifications: s.notifications.slice(0, 10).map((n) => ({ when: whenForPeople(n.at, zone, now), text: instantsInWords(n.text, zone, now) })),
  };
}

const entryTemplate = `<li class="card" data-entry="<%= e.id %>">
<p class="meta"><strong><%= e.time %></strong> · <%= e.kind %><% if (e.status) { %> <span class="status"><%= e.status %></span><% } %></p>
<p><%= e.job %></p>
<% if (e.customer) { %><p><strong><%= e.customer %></strong><% if (e.phone) { %> · <a href="tel:<%= e.phone %>"><%= e.phone %></a><% } %><% if (e.email) { %> · <a href="mailto:<%= e.email %>"><%= e.email %></a><% } %></p><% } %>
<% if (e.address) { %><p><%= e.address %></p><% } %>
<% if (e.details) { %><p class="msg"><%= e.details %></p><% } %>
<% if (e.notes) { %><p class="msg">Notes: <%= e.notes %></p><% } %>
<% if (e.money || e.technician || e.source) { %><p class="note"><%= [e.money, e.technician ? 'With ' + e.technician : null, e.source].filter(Boolean).join(' · ') %></p><% } %>
</li>`;

/** The home page's body; `nav` and `csrfField` are the dashboard's own pieces. */
/** The home page's own styles (the shared shell leaves h2 and h3 larger than its h1). */
const style = `<style>h2{font-size:1.2rem;margin:1.6rem 0 .4rem}h3{font-size:1.05rem;margin:1rem 0 .2rem}.cards p{margin:.2rem 0}
.news{list-style:none;padding:0}.news li{margin:.5rem 0;padding-bottom:.5rem;border-bottom:1px solid #eee}section{margin-bottom:1.2rem}</style>`;

export const homeTemplate = (nav: string, csrfField: string) => `${style}${nav}<h1>Your dashboard</h1>
<% if (it.flash) { %><p class="note" id="outcome" role="status"><%= it.flash %></p><% } %>
<% if (it.error) { %><p class="note" id="error" role="alert"><strong><%= it.error %></strong></p><% } %>
<% if (it.home) { %>
<section id="today" aria-labelledby="today-heading"><h2 id="today-heading">Today, <%= it.home.todayHeading %></h2>
<% if (!it.home.today.length) { %><p class="note" id="nothing-today">Nothing booked for the rest of today.</p><% } %>
<ul class="cards"><% it.home.today.forEach(function (e) { %>${entryTemplate}<% }) %></ul></section>
<section id="week" aria-labelledby="week-heading"><h2 id="week-heading">The next 7 days</h2>
<% if (!it.home.week.length) { %><p class="note" id="nothing-week">Nothing booked in the next 7 days.</p><% } %>
<% it.home.week.forEach(function (d) { %><h3><%= d.heading %></h3>
<ul class="cards"><% d.entries.forEach(function (e) { %>${entryTemplate}<% }) %></ul><% }) %>
<p class="note">Times are your business's local time (<%= it.home.zone %>). Your assistant moves, cancels and books them (schedule, reschedule_job, cancel_job, book_job).</p></section>
<% if (it.home.awaiting.length) { %><section id="awaiting" aria-labelledby="awaiting-heading"><h2 id="awaiting-heading">Done, or a no-show?</h2>
<p class="note">These ended without being marked done or as a no-show: tell your assistant which (confirm_job_done, report_no_show).</p>
<ul class="cards"><% it.home.awaiting.forEach(function (e) { %><li class="card"><p class="meta"><strong><%= e.when %></strong> · <%= e.kind %></p><p><%= e.job %> · <%= e.customer %></p></li><% }) %></ul></section><% } %>
<% if (it.home.notifications.length) { %><section id="news" aria-labelledby="news-heading"><h2 id="news-heading">What happened</h2>
<ul class="news"><% it.home.notifications.forEach(function (n) { %><li><span class="note"><%= n.when %></span><br><%= n.text %></li><% }) %></ul></section><% } %>
<% } %>
<section id="manage-with-ai-section" aria-labelledby="ai-heading"><h2 id="ai-heading">Manage with AI</h2>
<p>A code connects your AI assistant to this business. It is shown once, works once, for 10 minutes.</p>
<form method="post" action="/app/manage-with-ai" id="home-code-form">${csrfField}<button type="submit" id="create-code">Create a code</button></form></section>
<% if (it.feed) { %><section id="feed" aria-labelledby="feed-heading"><h2 id="feed-heading">Your calendar</h2>
<p><label for="calendar-feed-url">Your schedule's private calendar address: copy it into your calendar app ("From URL" in Google Calendar, "New Calendar Subscription" in Apple Calendar).</label></p>
<p><textarea id="calendar-feed-url" readonly rows="3" spellcheck="false" style="min-height:0;font:.9rem/1.4 ui-monospace,monospace;word-break:break-all"><%= it.feed %></textarea></p>
<p><a id="subscribe" href="<%= it.webcal %>">Open it in your calendar app</a></p>
<p class="note">Anyone with this address can read your schedule. If someone else got it, replace it: the old one stops working at once.</p>
<form method="post" action="/app/calendar/rotate" id="rotate-form">${csrfField}<button type="submit" class="danger" id="rotate">Replace the address</button></form></section><% } %>
<% if (it.port) { %><section id="transfer" aria-labelledby="transfer-heading"><h2 id="transfer-heading">Moving your number</h2>
<% if (it.port.status === 'draft') { %><p id="transfer-status">Moving <strong><%= it.port.number %></strong> to your AI receptionist is waiting for you: give the carrier's details and your authorisation to finish it.<% if (it.port.replaces) { %> When it completes, <%= it.port.replaces %> is given back to the carrier and stops answering calls.<% } %></p>
<form method="post" action="/app/number-transfer" id="transfer-form">${csrfField}<input type="hidden" name="port_id" value="<%= it.port.port_id %>"><button type="submit" id="finish-transfer">Finish the transfer</button></form>
<% } else if (it.port.status === 'submitted') { %><p id="transfer-status">Moving <strong><%= it.port.number %></strong> is with the carrier; it usually takes a few days.</p>
<% } else if (it.port.status === 'completed') { %><p id="transfer-status"><strong><%= it.port.number %></strong> now rings your AI receptionist.</p>
<% } else { %><p id="transfer-status"><strong><%= it.port.number %></strong> was not moved<% if (it.port.reason) { %>: <%= it.port.reason %><% } %>.</p><% } %></section><% } %>
<% if (it.businesses.length > 1) { %><h2>Your businesses</h2>
<form method="post" action="/app/business" id="business-form">${csrfField}
<% it.businesses.forEach(function (b) { %><p><label><input type="radio" name="business_id" value="<%= b.id %>" style="width:auto"<% if (b.id === it.session.businessId) { %> checked<% } %>> <%= b.name %></label></p>
<% }) %><button type="submit" id="switch">Show this business</button></form><% } %>
<h2>More</h2>
<ul>
<li><a href="/app/manage-with-ai" id="manage-with-ai">Manage with AI</a>: connect your AI assistant.</li>
<li><a href="/app/keys" id="keys">Keys and connections</a>: what can act for your business, and revoking it.</li>
<li><a href="/app/calendar" id="calendar">Calendar</a>: your schedule in your own calendar app.</li>
</ul>
<form method="post" action="/app/sign-out" id="sign-out-form">${csrfField}<button type="submit" id="sign-out">Sign out</button></form>`;

/** The feed's address for a calendar app's "subscribe" link. */
export const webcalOf = (url: string) => url.replace(/^https?:/, 'webcal:');
