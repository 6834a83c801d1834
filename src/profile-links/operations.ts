import { defineOperation } from '../registry/operation.js';
import { addProfileLinkInput, removeProfileLinkInput } from './inputs.js';
import { addProfileLinkService, removeProfileLinkService } from './service.js';
import { AddProfileLinkResult, RemoveProfileLinkResult } from './types.js';

export const addProfileLink = defineOperation({
  name: 'add_profile_link',
  domain: 'profile-links',
  method: 'POST',
  auth: 'owner',
  result: AddProfileLinkResult,
  resolve: addProfileLinkService,
  annotations: { idempotentHint: true, openWorldHint: true },
  description: 'Add a website or profile page of the business. Search shows it, with its rating, once the page carries verification.code or links back; tell the owner verification.how.',
  input: addProfileLinkInput,
  example: { input: { url: 'https://www.sparkle-shine-cleaning.example/about' } },
});

export const removeProfileLink = defineOperation({
  name: 'remove_profile_link',
  domain: 'profile-links',
  method: 'POST',
  auth: 'owner',
  result: RemoveProfileLinkResult,
  resolve: removeProfileLinkService,
  annotations: { destructiveHint: true, idempotentHint: false },
  description: 'Remove a profile link of the business; search stops showing it.',
  input: removeProfileLinkInput,
  example: { input: { link_id: 'link_id from add_profile_link' } },
});

export const operations = [addProfileLink, removeProfileLink];
