/**
 * OAuth protocol errors (RFC 6749 section 5.2, RFC 7591 section 3.2.2). They carry the wire
 * code the client library expects; the description is for people and never holds a secret.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata';

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  /** invalid_client is an authentication failure (401); every other error is a 400. */
  get status(): 400 | 401 {
    return this.error === 'invalid_client' ? 401 : 400;
  }
}
