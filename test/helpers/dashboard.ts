/** An owner signed in to the dashboard at /app over HTTP, as a browser would be: cookies and the forms' CSRF token. */
import { DEMO_PASSWORD, demoOwnerEmail } from '../../src/demo/generate.js';
import { BASE, type TestApp } from './harness.js';

export interface Dashboard {
  /** The Cookie header the browser sends. */
  cookie: string;
  /** The CSRF token the dashboard's forms carry. */
  csrf: string;
  get(path: string, headers?: Record<string, string>): Promise<Response>;
  /** A form POST from the dashboard's own page (Origin: BASE), with the CSRF token unless `fields` sets one. */
  post(path: string, fields?: Record<string, string | Blob>, headers?: Record<string, string>): Promise<Response>;
}

/** name=value of each Set-Cookie, as a Cookie header. */
export const cookiesOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ');

export const csrfIn = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1];

/** A form POST: urlencoded, or multipart/form-data when a field is a file (a Blob). */
export const formPost = (app: TestApp, path: string, fields: Record<string, string | Blob>, headers: Record<string, string> = {}) => {
  if (!Object.values(fields).some((v) => v instanceof Blob)) {
    return app.get(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: BASE, ...headers }, body: new URLSearchParams(fields as Record<string, string>) });
  }
  const body = new FormData();
  for (const [k, v] of Object.entries(fields)) body.append(k, v);
  return app.get(path, { method: 'POST', headers: { origin: BASE, ...headers }, body });
};

/** A small PDF, as the bill a number transfer needs. */
export const testBill = () => new File([`%PDF-1.4\n% bill for the test\n%%EOF\n`], 'bill.pdf', { type: 'application/pdf' });

/** Signs in with the demo owner's e-mail and password of `slug`. */
export async function signInToDashboard(app: TestApp, slug: string, headers: Record<string, string> = {}): Promise<Dashboard> {
  const form = await app.get('/app/sign-in', { headers });
  const signInCookie = cookiesOf(form);
  const res = await formPost(app, '/app/sign-in', { csrf: csrfIn(await form.text())!, email: demoOwnerEmail(slug), password: DEMO_PASSWORD }, { cookie: signInCookie, ...headers });
  if (res.status !== 303) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`);
  const cookie = cookiesOf(res)
    .split('; ')
    .filter((c) => c.startsWith('porchlight_session=') || c.startsWith('__Host-porchlight_session='))
    .join('; ');
  const home = await app.get('/app', { headers: { cookie, ...headers } });
  const csrf = csrfIn(await home.text());
  if (!csrf) throw new Error('no CSRF token on the dashboard home page');
  return {
    cookie,
    csrf,
    get: (path, more = {}) => app.get(path, { headers: { cookie, ...headers, ...more } }),
    post: (path, fields = {}, more = {}) => formPost(app, path, { csrf, ...fields }, { cookie, ...headers, ...more }),
  };
}
