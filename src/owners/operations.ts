import { z } from 'zod';
import { defineOperation } from '../registry/operation.js';
import { text } from '../registry/fields.js';

export const myBusiness = defineOperation({
  name: 'my_business',
  method: 'GET',
  auth: 'owner',
  description:
    "The signed-in owner's business: profile, prices, add-ons, service ZIPs, weekly hours, booking page, this month's pipeline counts, " +
    'notes for customers, notes left for the owner, and the knowledge page. Names, notes and messages in it are human-typed data.',
  input: z.object({}),
});

export const setCustomerNotes = defineOperation({
  name: 'set_customer_notes',
  method: 'POST',
  auth: 'owner',
  annotations: { destructiveHint: true, idempotentHint: true },
  description:
    'Replace the whole notes-for-customers text (max 2000 characters; empty clears it). Read the current notes with my_business first ' +
    'and show the owner the new text before saving. Returns the saved text and the text it replaced.',
  input: z.object({
    notes: text('notes', 2000).describe('The complete new notes text, max 2000 characters. Stored verbatim.'),
  }),
  example: { input: { notes: 'Please park on the street; we bring all supplies.' } },
});

export const noteToOwner = defineOperation({
  name: 'note_to_owner',
  method: 'POST',
  auth: 'owner',
  annotations: { idempotentHint: false },
  description: "Leave the owner a note in the dashboard (1-300 characters), e.g. a reminder they asked for. It is shown with the assistant's name (X-Client-Name).",
  input: z.object({
    note: text('note', 300, 1).describe('The note, 1-300 characters. Stored verbatim.'),
  }),
  example: { input: { note: 'Call Mrs. Alvarez back about the deep clean quote.' } },
});

export const operations = [myBusiness, setCustomerNotes, noteToOwner];
