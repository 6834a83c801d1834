/**
 * A graphql-ws connection outlives the checks of any one request, so the credential it was
 * opened with is watched: the socket closes (4403 Forbidden) when its OAuth access token or
 * business key expires, and when its grant or key is revoked on any instance (the credentialRevoked event,
 * which travels through Redis when REDIS_URL is set).
 */
import { CloseCode } from 'graphql-ws';
import type { WebSocket } from 'ws';
import type { Services } from '../src/context.js';
import type { Credential } from '../src/auth/vocabulary.js';

export const closeForbidden = (socket: WebSocket) => socket.close(CloseCode.Forbidden, 'Forbidden');

/** setTimeout's longest delay (about 24.8 days): a longer one fires at once. */
const MAX_DELAY_MS = 2 ** 31 - 1;

/** Closes `socket` at `at` (service clock), however far off (a business key's expiry is months away); returns the cancel. */
function closeAt(services: Services, socket: WebSocket, at: number): () => void {
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    const left = at - services.clock.now();
    if (left <= 0) closeForbidden(socket);
    else timer = setTimeout(arm, Math.min(left, MAX_DELAY_MS));
  };
  arm();
  return () => clearTimeout(timer);
}

export interface CredentialWatch {
  /** Closes `socket` when `credential` expires or is revoked. */
  watch(socket: WebSocket, credential: Credential): void;
  /** Stops listening for revocations (server shutdown). */
  close(): void;
}

export function watchCredentials(services: Services): CredentialWatch {
  /** Sockets by credential id, with one revocation listener per credential however many sockets share it. */
  const watched = new Map<string, { sockets: Set<WebSocket>; stop: () => void }>();

  function listen(credentialId: string, sockets: Set<WebSocket>): () => void {
    const revocations = services.events.subscribe('credentialRevoked', credentialId)[Symbol.asyncIterator]();
    void (async () => {
      try {
        while (!(await revocations.next()).done) for (const socket of sockets) closeForbidden(socket);
      } catch (err) {
        services.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'revocation listener failed');
      }
    })();
    return () => void revocations.return?.();
  }

  return {
    watch(socket, credential) {
      // The shared public key cannot be revoked or expire; a socket closed meanwhile needs nothing.
      if (credential.kind === 'public' || socket.readyState !== socket.OPEN) return;
      let entry = watched.get(credential.id);
      if (!entry) {
        const sockets = new Set<WebSocket>();
        entry = { sockets, stop: listen(credential.id, sockets) };
        watched.set(credential.id, entry);
      }
      entry.sockets.add(socket);
      const cancelExpiry = credential.expiresAt === undefined ? undefined : closeAt(services, socket, credential.expiresAt);
      const current = entry;
      socket.once('close', () => {
        cancelExpiry?.();
        current.sockets.delete(socket);
        if (current.sockets.size === 0 && watched.get(credential.id) === current) {
          current.stop();
          watched.delete(credential.id);
        }
      });
    },
    close() {
      for (const entry of watched.values()) entry.stop();
      watched.clear();
    },
  };
}
