import type { PrismaClient } from './generated/prisma/client.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Logger } from 'pino';
import type { Outbox } from './mail/outbox.js';

/** Contact details an assistant passes on behalf of its user (X-User-* headers). */
export interface UserHeaders {
  name?: string;
  email?: string;
  phone?: string;
}

/** The credential a request carried, once verified (issue: authentication). */
export interface Credential {
  id: string;
  kind: 'personal' | 'public' | 'business';
}

/** Long-lived services shared by every request. */
export interface Services {
  prisma: PrismaClient;
  clock: Clock;
  config: Config;
  outbox: Outbox;
  logger: Logger;
}

export interface Context extends Services {
  user: UserHeaders;
  clientName?: string;
  credential: Credential | null;
}
