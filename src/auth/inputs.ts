import { z } from 'zod';
import { identifier } from '../registry/fields.js';

export const apiKeysInput = z.object({});

export const revokeApiKeyInput = z.object({ id: identifier('id').describe('A key_id or connection_id from api_keys.') });
