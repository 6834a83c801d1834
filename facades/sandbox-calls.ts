import { Hono, type Context } from 'hono';
import type { Services } from '../src/context.js';
import { CarrierRefused } from '../src/phone/carrier.js';
import { MAX_CALL_MINUTES, SANDBOX_CALLER, type SimulatedCall } from '../src/phone/sandbox-voice.js';
import { eta, layout } from './html.js';

/** The page's path; served only while the carrier is the sandbox (production.ts, SANDBOX_PAGES.calls). */
export const SANDBOX_CALLS = '/sandbox/calls';

const template = `<h1>Carrier sandbox: place a call</h1>
<p class="note">Porchlight carrier sandbox: no phone rings. A simulated call goes through the same signed voice webhooks Twilio would call (the call rings, then its status callback reports the minutes), so the receptionist answers, meters and stops at the spending limit exactly as it would on a real line.</p>
<% if (it.error) { %><p class="status" role="alert"><%= it.error %></p><% } %>
<% if (it.result) { %><section id="result"><h2>Call <%= it.result.callSid %></h2><dl>
<dt>Answered by</dt><dd id="answer"><%= it.answerText %></dd>
<dt>Status</dt><dd><%= it.result.status %>, <%= it.result.durationSeconds %> seconds</dd>
<dt>Minutes metered</dt><dd id="metered"><%= it.metered %></dd>
<dt>Status callback</dt><dd><%= it.result.statusCallback === null ? 'not sent (lost on the way: receptionist_refresh reads the call record)' : 'HTTP ' + it.result.statusCallback %></dd>
</dl><details><summary>TwiML answered</summary><pre class="page"><%= it.result.twiml %></pre></details></section><% } %>
<form method="post" action="<%= it.action %>">
<label>Receptionist number called<br><select name="to" required><% for (const n of it.numbers) { %><option value="<%= n.number %>"<%= n.number === it.to ? ' selected' : '' %>><%= n.number %> (<%= n.name %>)</option><% } %></select></label><br>
<label>Caller<br><input name="from" value="<%= it.from %>" maxlength="20"></label>
<label>Minutes the caller talks<br><input name="minutes" type="number" min="1" max="<%= it.max %>" value="<%= it.minutes %>" required></label>
<label><input type="checkbox" name="lose_status" value="yes" style="width:auto"> Lose the status callback (as a network failure would)</label><br>
<button type="submit">Place the call</button>
</form>
<% if (!it.numbers.length) { %><p class="note">No receptionist has an active sandbox number yet: buy a plan and activate one (phone_numbers, activate_phone_number).</p><% } %>`;

const ANSWERS: Record<SimulatedCall['answer'], string> = {
  agent: 'the AI agent (VOICE_AGENT_URL)',
  forwarded: "the owner's phone (forwarded)",
  closed: 'nobody: the caller heard that the business cannot take the call',
  rejected: 'nobody: the number is no active receptionist number',
  failed: 'nobody: the voice webhook did not answer with TwiML',
};

/**
 * GET/POST /sandbox/calls: the carrier sandbox's page that places a simulated call of N minutes
 * to a receptionist number. A POST must come from this site (Origin or Sec-Fetch-Site).
 */
export function sandboxCallRoutes(services: Services, fromThisSite: (c: Context) => boolean) {
  const app = new Hono();
  const sandbox = services.phone.voiceSandbox;
  if (!sandbox) return app;

  const numbers = () =>
    services.prisma.receptionistNumber.findMany({ where: { status: 'active' }, orderBy: { number: 'asc' }, take: 200, select: { number: true, business: { select: { name: true } } } });
  const page = async (data: { error?: string; result?: SimulatedCall; metered?: string; to?: string; from?: string; minutes?: string }, status: 200 | 400 | 403 = 200) => {
    const list = (await numbers()).map((n) => ({ number: n.number, name: n.business.name }));
    const body = eta.renderString(template, {
      action: SANDBOX_CALLS,
      numbers: list,
      error: data.error,
      result: data.result,
      answerText: data.result ? `${ANSWERS[data.result.answer]}${data.result.dialed ? ` ${data.result.dialed}` : ''}` : '',
      metered: data.metered ?? '',
      to: data.to ?? list[0]?.number ?? '',
      from: data.from ?? SANDBOX_CALLER,
      minutes: data.minutes ?? '3',
      max: MAX_CALL_MINUTES,
    });
    return new Response(layout('Carrier sandbox: calls', body), { status, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } });
  };

  app.get(SANDBOX_CALLS, () => page({}));
  app.post(SANDBOX_CALLS, async (c) => {
    if (!fromThisSite(c)) return page({ error: 'This form was sent from another site: open /sandbox/calls and send it from there.' }, 403);
    const form = await c.req.parseBody();
    const field = (name: string) => (typeof form[name] === 'string' ? (form[name] as string).trim().slice(0, 40) : '');
    const to = field('to');
    const from = field('from') || SANDBOX_CALLER;
    const minutesText = field('minutes');
    const minutes = Number(minutesText);
    const keep = { to, from, minutes: minutesText };
    if (!/^\+\d{8,15}$/.test(to)) return page({ ...keep, error: 'Choose the receptionist number to call.' }, 400);
    if (!/^\+?\d{3,15}$/.test(from)) return page({ ...keep, error: 'The caller is a phone number in E.164, e.g. +14155550142.' }, 400);
    if (!Number.isInteger(minutes) || minutes < 1 || minutes > MAX_CALL_MINUTES) return page({ ...keep, error: `Minutes must be a whole number from 1 to ${MAX_CALL_MINUTES}.` }, 400);
    try {
      const result = await sandbox.placeCall({ to, from, minutes, statusCallback: field('lose_status') !== 'yes' });
      const call = await services.prisma.voiceCall.findUnique({ where: { callSid: result.callSid }, select: { minutes: true, answer: true } });
      const metered = call?.minutes != null ? `${call.minutes} of ${minutes}` : call?.answer === 'agent' ? 'none yet' : 'none (not answered by the agent)';
      return page({ ...keep, result, metered });
    } catch (err) {
      if (err instanceof CarrierRefused) return page({ ...keep, error: err.message }, 400);
      throw err;
    }
  });
  return app;
}
