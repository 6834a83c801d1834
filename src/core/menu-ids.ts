/** Service, add-on and scent ids: the spec's selection format. */
export const MENU_ID = /^[\w-]{1,64}$/;

/** A readable id from a name: "Women's cut & style" → "womens-cut-style". */
export function idFromName(name: string, fallback: string): string {
  const id = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 56)
    .replace(/-+$/, '');
  return id || fallback;
}
