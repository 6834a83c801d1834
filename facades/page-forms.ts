/**
 * The forms of the public pages (the business page's booking steps, the manage and conversation
 * pages): a signed double-submit CSRF token, the visitor's form budget, and form fields as strings.
 *
 * The browser holds a random value in an HttpOnly cookie; every form carries an HMAC of it under
 * a server key (SECRETS_KEY, or a key of this process in development). A page on another site can
 * neither read the cookie nor compute the token, and a value planted in the cookie from elsewhere
 * is useless without the key. A post without the right token gets a 403 page that says what to do.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { serialize } from 'hono/utils/cookie';
import type { Services } from '../src/context.js';
import { AppError } from '../src/errors.js';
import { clientAddress } from './client-address.js';
import { eta, layout } from './html.js';

export interface PageForms {
  /** The token for this visitor's forms; call `cookie` on the answer so the browser keeps its value. */
  token(c: Context): { csrf: string; setCookie: string | null };
  /** null when the post carries this visitor's token and is within the visitor's budget; otherwise the refusal page. */
  refuse(c: Context, form: Record<string, string>): Promise<Response | null>;
}

const messageTemplate = `<h1><%= it.title %></h1><p id="error"><%= it.message %></p><% if (it.back) { %><p><a href="<%= it.back %>">Go back to the page</a></p><% } %>`;

export const htmlPage = (title: string, template: string, data: object, status = 200, headers: Record<string, string> = {}) =>
  new Response(layout(title, eta.renderString(template, data)), {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });

export const messagePage = (title: string, message: string, status: number, back?: string, headers: Record<string, string> = {}) =>
  htmlPage(title, messageTemplate, { title, message, back }, status, headers);

/** Form fields as strings; a checkbox group (`name` sent several times) joined by commas. */
export async function formFields(c: Context): Promise<Record<string, string>> {
  const type = c.req.header('content-type') ?? '';
  if (!type.startsWith('application/x-www-form-urlencoded') && !type.startsWith('multipart/form-data')) return {};
  const body = await c.req.parseBody({ all: true });
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(body)) {
    if (typeof v === 'string') out[k] = v;
    else if (Array.isArray(v)) out[k] = v.filter((x): x is string => typeof x === 'string').join(',');
  }
  return out;
}

export function pageForms(services: Services): PageForms {
  const { baseUrl, secretsKey, trustProxy } = services.config;
  const https = baseUrl.startsWith('https:');
  const name = https ? '__Host-porchlight_form' : 'porchlight_form';
  const key = secretsKey ? Buffer.from(`page-forms:${secretsKey}`) : randomBytes(32);
  const sign = (value: string) => createHmac('sha256', key).update(value).digest('base64url');
  const wellFormed = (v: string | undefined): v is string => v !== undefined && /^[\w-]{43}$/.test(v);

  return {
    token(c) {
      const existing = getCookie(c, name);
      if (wellFormed(existing)) return { csrf: sign(existing), setCookie: null };
      const value = randomBytes(32).toString('base64url');
      return { csrf: sign(value), setCookie: serialize(name, value, { path: '/', httpOnly: true, secure: https, sameSite: 'Lax', maxAge: 24 * 3600 }) };
    },
    async refuse(c, form) {
      const back = (() => {
        const path = new URL(c.req.url).pathname;
        return /^\/(b|manage|conversation)\//.test(path) ? path.replace(/\/(book|move|cancel|message|times|details)(\/.*)?$/, '') : undefined;
      })();
      const cookie = getCookie(c, name);
      const sent = form.csrf ?? '';
      const expected = wellFormed(cookie) ? sign(cookie) : null;
      if (!expected || sent.length !== expected.length || !timingSafeEqual(Buffer.from(sent), Buffer.from(expected))) {
        return messagePage(
          'Form refused',
          'This form was refused: it did not carry the token of a page from this site (the page may have been open for a long time, or cookies are blocked). Open the page again and send the form from there; nothing was booked or changed.',
          403,
          back,
        );
      }
      // Each visitor's form posts come out of the same per-address budget as its API calls.
      try {
        await services.rateLimits.request.consume(`address:${clientAddress(c, trustProxy)}`);
      } catch (err) {
        if (!(err instanceof AppError) || err.code !== 'rate_limited') throw err;
        const retry = Number(err.extra.retry_after ?? 60);
        return messagePage('Too many requests', `Too many requests from your connection. Wait ${retry} seconds, then send the form again; nothing was booked or changed.`, 429, back, { 'retry-after': String(retry) });
      }
      return null;
    },
  };
}
