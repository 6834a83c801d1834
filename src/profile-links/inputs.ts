import { z } from 'zod';
import { identifier, text } from '../registry/fields.js';

export const LINK_MAX = 2000;

export const addProfileLinkInput = z.object({
  url: text('url', LINK_MAX, 1)
    // A control character (a NUL byte, a line break) in an address is a mistake or an attack, never a page.
    .refine((s) => !/[\u0000-\u001f\u007f]/.test(s), 'url must not contain control characters (such as a NUL byte or a line break); send the address as the browser shows it.')
    .describe('https address of the page.'),
});

export const removeProfileLinkInput = z.object({
  link_id: identifier('link_id').describe('From my_business or add_profile_link.'),
});
