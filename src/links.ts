/**
 * The public pages and where they live. Domain code asks for a link here; the page routes in
 * facades/ are registered from the same patterns, so a link and its page cannot drift apart.
 */
export const ROUTES = {
  confirm: '/confirm/:token',
  manage: '/manage/:token',
  keyConfirm: '/key/confirm/:token',
  businessPage: '/b/:slug',
  /** A form that starts a conversation with the business (contact_business). */
  businessContact: '/b/:slug/contact',
  /** How AI assistants reach the business through Porchlight (plain text, llms.txt style). */
  agentInfo: '/b/:slug/llms.txt',
} as const;

export type Links = ReturnType<typeof createLinks>;

export function createLinks(baseUrl: string) {
  const at = (route: string, value: string) => `${baseUrl}${route.replace(/:\w+/, encodeURIComponent(value))}`;
  return {
    confirm: (token: string) => at(ROUTES.confirm, token),
    manage: (token: string) => at(ROUTES.manage, token),
    keyConfirm: (token: string) => at(ROUTES.keyConfirm, token),
    businessPage: (slug: string) => at(ROUTES.businessPage, slug),
    businessContact: (slug: string) => at(ROUTES.businessContact, slug),
    agentInfo: (slug: string) => at(ROUTES.agentInfo, slug),
  };
}
