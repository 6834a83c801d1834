/**
 * GraphQL over WebSocket (graphql-ws protocol) on the same port and path as GraphQL over
 * HTTP. Operations run through the one yoga instance's envelop, so context, credentials,
 * rate limits, access checks and error masking are those of /graphql. The credential is
 * verified again for every operation, and a socket whose credential expires or is revoked is
 * closed (ws-credentials.ts).
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ServerType } from '@hono/node-server';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import type { ExecutionArgs, GraphQLError } from 'graphql';
import type { Services } from '../src/context.js';
import type { createApp } from './app.js';
import { AppError, toGraphQLError } from '../src/errors.js';
import type { AddressRange } from '../src/config.js';
import { credentialOf } from '../src/auth/credentials.js';
import { addressBehindProxies } from './client-address.js';
import { hostChecker, misdirected } from './guards.js';
import { closeForbidden, watchCredentials } from './ws-credentials.js';

/** Headers a client may pass in connectionParams (browsers cannot set them on the upgrade). */
const PASSED = ['authorization', 'x-user-name', 'x-user-email', 'x-user-phone', 'x-client-name'];

/**
 * A Request carrying the connection's credentials: the upgrade request's own headers among
 * PASSED, overridden by connectionParams (matched case-insensitively).
 */
function connectionRequest(baseUrl: string, upgrade: IncomingMessage, params: Record<string, unknown> | undefined): Request {
  const headers = new Headers();
  for (const name of PASSED) {
    const value = upgrade.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  for (const [key, value] of Object.entries(params ?? {})) {
    const name = key.toLowerCase();
    if (PASSED.includes(name) && typeof value === 'string') headers.set(name, value);
  }
  return new Request(`${baseUrl}/graphql`, { headers });
}

/** The caller's address, by the same proxy rule as HTTP requests. */
const peerAddress = (upgrade: IncomingMessage, proxies: AddressRange[]) =>
  addressBehindProxies(upgrade.socket.remoteAddress ?? 'unknown', String(upgrade.headers['x-forwarded-for'] ?? ''), proxies);

/** The HTTP refusal of an upgrade, as JSON like every other refusal. */
function refuse(socket: Duplex, status: string, body?: object) {
  const text = body ? JSON.stringify(body) : '';
  const type = body ? 'Content-Type: application/json\r\n' : '';
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\n${type}Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
}

type Root = { execute: (args: ExecutionArgs) => unknown; subscribe: (args: ExecutionArgs) => unknown };

/** What the sockets serve: the app's GraphQL pipeline and the services behind it. */
export interface Served {
  services: Services;
  app: Pick<ReturnType<typeof createApp>, 'yoga'>;
}

/** Serves graphql-ws on `server`'s upgrades to /graphql; other upgrade paths are refused. */
export function attachWebSockets(server: ServerType, porchlight: Served): { close(): Promise<void> } {
  const { services } = porchlight;
  const { yoga } = porchlight.app;
  // A message over the API's body limit closes the connection with 1009 (message too big).
  const wss = new WebSocketServer({ noServer: true, maxPayload: services.config.maxBodyBytes });
  const hostAllowed = hostChecker(services.config);
  const credentials = watchCredentials(services);
  const addressOf = (upgrade: IncomingMessage) => peerAddress(upgrade, services.config.trustProxy);

  const graphqlWs = useServer(
    {
      execute: (args) => (args.rootValue as Root).execute(args) as never,
      subscribe: (args) => (args.rootValue as Root).subscribe(args) as never,
      // An invalid key closes the connection (4403) before any operation; no key is fine.
      onConnect: async (ctx) => {
        try {
          const request = connectionRequest(services.config.baseUrl, ctx.extra.request, ctx.connectionParams);
          const credential = await credentialOf(services, request, addressOf(ctx.extra.request));
          if (credential) credentials.watch(ctx.extra.socket, credential);
          return true;
        } catch {
          return false;
        }
      },
      onSubscribe: async (ctx, _id, payload) => {
        // A new Request per operation, so its credential is verified afresh (credentialOf caches
        // by Request): one that has since been revoked or has expired closes the connection.
        const request = connectionRequest(services.config.baseUrl, ctx.extra.request, ctx.connectionParams);
        try {
          await credentialOf(services, request, addressOf(ctx.extra.request));
        } catch (err) {
          if (err instanceof AppError && err.code === 'unauthorized') closeForbidden(ctx.extra.socket);
          return [toGraphQLError(err)];
        }
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          request,
          params: payload,
          clientAddress: addressOf(ctx.extra.request),
        });
        try {
          const document = parse(payload.query);
          const errors = validate(schema, document);
          if (errors.length) return errors.map((e: GraphQLError) => toGraphQLError(e));
          return {
            schema,
            document,
            operationName: payload.operationName,
            variableValues: payload.variables,
            contextValue: await contextFactory(),
            rootValue: { execute, subscribe } satisfies Root,
          };
        } catch (err) {
          // Unparsable documents, an invalid credential or the rate limit: the same errors as HTTP.
          return [toGraphQLError(err)];
        }
      },
    },
    wss,
  );

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!hostAllowed(req.headers.host, req.socket.localPort)) return refuse(socket, '421 Misdirected Request', misdirected(services.config));
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== '/graphql') return refuse(socket, '404 Not Found');
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  };
  (server as Server).on('upgrade', onUpgrade);

  return {
    async close() {
      (server as Server).off('upgrade', onUpgrade);
      credentials.close();
      // Closes every socket and the WebSocket server itself.
      await graphqlWs.dispose();
    },
  };
}
