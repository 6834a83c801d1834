import { defineOperation } from '../registry/operation.js';
import { apiKeysService, revokeApiKeyService } from './access.js';
import { apiKeysInput, revokeApiKeyInput } from './inputs.js';
import { ApiKeysResult, RevokedResult } from './types.js';

export const apiKeys = defineOperation({
  name: 'api_keys',
  domain: 'auth',
  method: 'GET',
  auth: 'owner',
  result: ApiKeysResult,
  resolve: apiKeysService,
  description:
    "The business's live sk_pro_ keys and connected apps, to review or revoke (revoke_api_key).",
  input: apiKeysInput,
  example: { input: {} },
});

export const revokeApiKey = defineOperation({
  name: 'revoke_api_key',
  domain: 'auth',
  method: 'POST',
  auth: 'owner',
  result: RevokedResult,
  resolve: revokeApiKeyService,
  annotations: { destructiveHint: true, idempotentHint: true },
  description:
    'Revoke a business key or connected app at once, on every surface; a connection takes its keys with it.',
  input: revokeApiKeyInput,
  example: { input: { id: 'key_id from api_keys' } },
});

export const operations = [apiKeys, revokeApiKey];
