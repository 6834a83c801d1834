import { z } from 'zod';
import { identifier, requireOneOf, text } from '../registry/fields.js';
import { WEEKDAY_NAMES, dayHours } from '../core/hours.js';
import { INSTRUCTIONS_MAX_CHARS, PAGE_MAX_CHARS, SOURCE_MAX_CHARS } from './draft.js';
import { FILE_TYPES } from './read.js';

export const ANSWER_WHEN = ['always', 'business_hours', 'after_hours', 'custom'] as const;

/** Base64 grows a file by a third: this keeps an upload (about 730 KB) inside the default 1 MiB body. */
export const FILE_BASE64_MAX = 1_000_000;

const LINK_MAX = 2000;

export const ONE_SOURCE = 'note, url, file_url or file_base64 (with file_type)';

export const addReceptionistSourceInput = z
  .object({
    note: text('note', SOURCE_MAX_CHARS, 1).optional().describe("The owner's text, stored verbatim."),
    url: text('url', LINK_MAX, 1).optional().describe('A public https web page.'),
    file_url: text('file_url', LINK_MAX, 1).optional().describe('A public https link to a PDF or image (PNG, JPEG, WebP), max 10 MB.'),
    file_base64: z
      .string()
      .max(FILE_BASE64_MAX, `file_base64 must be at most ${FILE_BASE64_MAX} characters (a file of about 730 KB); send a larger file as file_url.`)
      .optional()
      .describe('A PDF or image, base64 (a file of about 730 KB at most; larger ones as file_url).'),
    file_type: z.enum(FILE_TYPES).optional().describe('With file_base64.'),
  })
  .superRefine((v, issue) => {
    const given = [v.note, v.url, v.file_url, v.file_base64].filter((x) => x !== undefined).length;
    const message =
      given === 0 ? `Send one source: ${ONE_SOURCE}.`
      : given > 1 ? `Send exactly one of ${ONE_SOURCE} per call; add the others in further calls.`
      : v.file_base64 !== undefined && v.file_type === undefined ? 'file_base64 needs file_type: pdf, png, jpeg or webp.'
      : v.file_base64 === undefined && v.file_type !== undefined ? "file_type goes only with file_base64 (a file_url's type is read from the link)."
      : null;
    if (message) issue.addIssue({ code: 'custom', message });
  });

export const editReceptionistSourceInput = requireOneOf(
  z.object({
    source_id: identifier('source_id', 60).describe('From receptionist.'),
    text: text('text', SOURCE_MAX_CHARS, 1).optional().describe('The whole corrected text.'),
    remove: z.boolean().optional().describe('true removes the source (send alone).'),
    shareable: z.boolean().optional().describe('true: assistants may answer from it before publishing.'),
  }),
  ['text', 'remove', 'shareable'],
  'Send what to change: text (the whole corrected text), shareable, or remove true.',
);

export const updateReceptionistInput = requireOneOf(
  z.object({
    draft: text('draft', PAGE_MAX_CHARS).optional().describe('The whole draft page.'),
    instructions: text('instructions', INSTRUCTIONS_MAX_CHARS).optional().describe('For the phone agent; live at once ("" clears).'),
    publish: z.boolean().optional().describe('true publishes the draft (an empty draft takes the page down).'),
  }),
  ['draft', 'instructions', 'publish'],
  'Send draft, instructions or publish true.',
);

const answerHours = z
  .object(Object.fromEntries(WEEKDAY_NAMES.map((d) => [d, dayHours(d).optional()])) as Record<(typeof WEEKDAY_NAMES)[number], z.ZodOptional<ReturnType<typeof dayHours>>>)
  .describe('For custom: only the days that change, each local "HH:MM-HH:MM" (to midnight "18:00-23:59") or "closed".');

export const updateFrontDeskInput = z.object({
  greeting: text('greeting', 300).optional().describe('What the receptionist says first on a call.'),
  tone: text('tone', 500).optional().describe('How it speaks, e.g. "warm, brief, no jargon".'),
  hand_off: text('hand_off', 1000).optional().describe('When to hand a call to a person.'),
  hand_off_phone: text('hand_off_phone', 30).optional().describe('Number to transfer to; "" clears.'),
  answer_when: z.enum(ANSWER_WHEN).optional().describe('When it answers calls; custom follows answer_hours.'),
  answer_hours: answerHours.optional(),
  texts_customers: z.boolean().optional().describe('true: text customers from your active number.'),
  complete: z.boolean().optional().describe('true: setup is done.'),
});
