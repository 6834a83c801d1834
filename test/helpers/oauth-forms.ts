/** The sign-in window's forms as a browser would read and submit them (OAuth tests). */

/** Decodes the entities Eta escapes in attribute values. */
export const unescape = (s: string) =>
  s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** Form fields; a repeated one (resource) holds its values in order. */
export type Fields = Record<string, string | string[]>;

/** The fields a browser would submit from the form with this id: hidden inputs and checked radios. */
export function formFields(html: string, formId: string): Fields {
  const form = new RegExp(`<form[^>]*id="${formId}"[^>]*>([\\s\\S]*?)</form>`).exec(html)?.[1];
  if (!form) throw new Error(`no form #${formId} in page`);
  const fields: Fields = {};
  for (const tag of form.match(/<input[^>]*>/g) ?? []) {
    const attr = (n: string) => new RegExp(`\\s${n}="([^"]*)"`).exec(tag)?.[1];
    const type = attr('type');
    const name = attr('name');
    if (!name || !(type === 'hidden' || (type === 'radio' && /\schecked/.test(tag)))) continue;
    const value = unescape(attr('value') ?? '');
    const before = fields[name];
    fields[name] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value];
  }
  return fields;
}

/** A form body as a browser sends it, repeated fields repeated. */
export function formBody(fields: Fields): URLSearchParams {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const v of Array.isArray(value) ? value : [value]) body.append(name, v);
  return body;
}
