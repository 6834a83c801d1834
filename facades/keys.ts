/**
 * /key: customers get a personal sk_live_ key after confirming their e-mail (plain HTML forms,
 * no JavaScript needed). POST /app/api/connect: a Manage with AI code buys an sk_pro_ key.
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { Services } from '../src/context.js';
import { AppError, errorStatus } from '../src/errors.js';
import { checkKeyRequest, confirmPersonalKey, connectWithCode, requestPersonalKey } from '../src/auth/keys.js';
import { controlCharacterAt } from '../src/registry/validate.js';
import { clientAddress } from './client-address.js';
import { ROUTES } from '../src/links.js';
import { eta, layout } from './html.js';

const formTemplate = `<h1>Get a personal Porchlight key</h1>
<p>With a personal key, your assistant books and checks cleanings and visits as you, and <em>my bookings</em> lists them.
We mail you a link; the key is shown once, after you open it.</p>
<% if (it.errors.length) { %><ul id="errors"><% it.errors.forEach(function (e) { %><li><%= e %></li><% }) %></ul><% } %>
<form method="post" action="/key">
<p><label for="name">Your name</label><br><input id="name" name="name" maxlength="100" required value="<%= it.name %>"></p>
<p><label for="email">E-mail</label><br><input id="email" name="email" type="email" maxlength="200" required value="<%= it.email %>"></p>
<button type="submit" id="request">Mail me the link</button>
</form>`;

const sentTemplate = `<h1>Check your mail</h1>
<p id="sent">We sent a link to <strong><%= it.email %></strong>. Open it within 24 hours and press the button there to see your key.</p>`;

const confirmTemplate = `<h1>Your personal key</h1>
<p>For <strong><%= it.name %></strong> (<%= it.email %>). Press the button to create the key; it is shown once, on the next page.</p>
<form method="post"><button type="submit" id="create">Show my key</button></form>`;

const keyTemplate = `<h1>Your personal key</h1>
<p>Copy it now: it is shown only this once. Give it to your assistant as a bearer key.</p>
<p><code id="key"><%= it.key %></code></p>
<p class="note">Anyone with this key can book in your name; keep it private.</p>`;

const errorTemplate = `<h1><%= it.title %></h1><p id="error"><%= it.message %></p>`;

// Plain text, as in every operation's input: PostgreSQL refuses NUL, and the name goes into mail.
const plain = (v: string) => controlCharacterAt(v) === null;
const keyForm = z.object({
  name: z.string().trim().min(1, 'Enter your name.').max(100, 'The name can be at most 100 characters.').refine(plain, 'Type your name as plain text.'),
  email: z.string().trim().max(200, 'The e-mail address can be at most 200 characters.').pipe(z.email('Enter a valid e-mail address, like you@example.com.')),
});

const connectBody = z.object({ code: z.string().min(1).max(100) });

const page = (title: string, template: string, data: object, status = 200, headers: Record<string, string> = {}) =>
  new Response(layout(title, eta.renderString(template, data)), {
    status,
    // no-store: the key page must not be kept in caches (guards.ts's pageHeaders keep the Referer).
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });

const refused = (err: unknown) => {
  if (!(err instanceof AppError)) throw err;
  if (err.code === 'rate_limited') {
    const retryAfter = String(err.extra.retry_after ?? 60);
    return page('Too many requests', errorTemplate, { title: 'Too many requests', message: err.message }, 429, { 'Retry-After': retryAfter });
  }
  return page('Link not valid', errorTemplate, { title: 'Something is not right', message: err.message }, errorStatus[err.code]);
};

const jsonError = (c: Context, err: unknown) => {
  if (!(err instanceof AppError)) throw err;
  if (err.code === 'rate_limited') c.header('Retry-After', String(err.extra.retry_after ?? 60));
  return c.json({ error: err.message, code: err.code, ...err.extra }, errorStatus[err.code]);
};

export function keyRoutes(services: Services): Hono {
  const app = new Hono();
  const trustProxy = services.config.trustProxy;

  app.get('/key', () => page('Get a key', formTemplate, { errors: [], name: '', email: '' }));
  app.post('/key', async (c) => {
    const form = await c.req.parseBody();
    const raw = { name: typeof form.name === 'string' ? form.name : '', email: typeof form.email === 'string' ? form.email : '' };
    const parsed = keyForm.safeParse(raw);
    if (!parsed.success) return page('Get a key', formTemplate, { errors: parsed.error.issues.map((i) => i.message), ...raw }, 400);
    try {
      // Each request sends a mail: limited per address, and per recipient so that nobody's
      // inbox can be flooded from many addresses.
      await services.rateLimits.keyRequest.consume(`address:${clientAddress(c, trustProxy)}`);
      await services.rateLimits.keyRequest.consume(`email:${parsed.data.email.toLowerCase()}`);
      await requestPersonalKey(services, parsed.data);
    } catch (err) {
      return refused(err);
    }
    return page('Check your mail', sentTemplate, { email: parsed.data.email });
  });

  // A GET only shows the button: mail scanners that follow links must not spend the link.
  app.get(ROUTES.keyConfirm, async (c) => {
    try {
      return page('Your key', confirmTemplate, await checkKeyRequest(services, c.req.param('token')));
    } catch (err) {
      return refused(err);
    }
  });
  app.post(ROUTES.keyConfirm, async (c) => {
    try {
      return page('Your key', keyTemplate, await confirmPersonalKey(services, c.req.param('token')));
    } catch (err) {
      return refused(err);
    }
  });

  // A deployment variant: without CONNECT_ROUTE the path is simply not served (404).
  if (services.config.connectRoute) {
    app.post('/app/api/connect', async (c) => {
      const body = connectBody.safeParse(await c.req.json().catch(() => null));
      if (!body.success) {
        return c.json({ error: 'Send a JSON body like {"code": "..."} with the Manage with AI code from the dashboard.', code: 'invalid_input' }, 400);
      }
      try {
        return c.json(await connectWithCode(services, body.data.code, clientAddress(c, trustProxy)), 200, { 'cache-control': 'no-store' });
      } catch (err) {
        return jsonError(c, err);
      }
    });
  }
  return app;
}
