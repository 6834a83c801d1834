import { createYoga, processRegularResult, type YogaServerInstance } from 'graphql-yoga';
import { useGraphQlJit } from '@envelop/graphql-jit';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { maxAliases } from './aliases.js';
import {
  Kind,
  NoSchemaIntrospectionCustomRule,
  locatedError,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLError,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import type { GraphQLParams, Plugin } from 'graphql-yoga';
import type { Operation } from '../src/registry/contract.js';
import type { Context, Services } from '../src/context.js';
import type { Scope } from '../src/auth/vocabulary.js';
import { AppError, logInternalError, rootCause, toGraphQLError } from '../src/errors.js';
import { checkAccess, credentialOf } from '../src/auth/credentials.js';
import { refusalHttp, scopeOf } from './challenge.js';
import { isJson, notJson } from './guards.js';

/**
 * The GraphQL error for `error`, with the headers yoga sends for it on /graphql
 * (extensions.http.headers): the sign-in challenge, or Retry-After. `scope` is what the refused
 * operation needs, where known.
 */
function withHeaders(error: unknown, baseUrl: string, scope?: Scope): GraphQLError {
  const mapped = toGraphQLError(error);
  const cause = rootCause(error);
  const { code, retry_after } = mapped.extensions;
  const { headers } = refusalHttp(baseUrl, '', cause instanceof AppError ? cause : { code, retry_after }, scope);
  if (Object.keys(headers).length) (mapped.extensions.http as Record<string, unknown>).headers = headers;
  return mapped;
}

/** The root fields an operation selects, through inline fragments and fragment spreads alike. */
export function rootFields(document: DocumentNode, operation: OperationDefinitionNode): string[] {
  const fragments = new Map(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );
  const names: string[] = [];
  const seen = new Set<string>();
  const walk = (set: SelectionSetNode) => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) names.push(sel.name.value);
      else if (sel.kind === Kind.INLINE_FRAGMENT) walk(sel.selectionSet);
      else if (!seen.has(sel.name.value)) {
        seen.add(sel.name.value);
        const fragment = fragments.get(sel.name.value);
        if (fragment) walk(fragment.selectionSet);
      }
    }
  };
  walk(operation.selectionSet);
  return names;
}

/**
 * Answers 401/403 before variables are coerced, so a caller without the sign-in learns nothing
 * about input rules, exactly as on REST and MCP. This is only the early answer: every root
 * field's resolver checks access again (registry/guard.ts), and that check decides.
 */
function useEarlyAccessCheck(operations: Operation[], baseUrl: string): Plugin<Context> {
  const byField = new Map(operations.map((op) => [`${op.method === 'GET' ? 'query' : 'mutation'}.${op.field}`, op]));
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const ctx = args.contextValue as Context;
      for (const def of args.document.definitions) {
        if (def.kind !== Kind.OPERATION_DEFINITION) continue;
        if (args.operationName && def.name?.value !== args.operationName) continue;
        for (const name of rootFields(args.document, def)) {
          const op = byField.get(`${def.operation}.${name}`);
          if (!op) continue;
          try {
            checkAccess(op, ctx.credential);
          } catch (err) {
            setResultAndStopExecution({ errors: [withHeaders(err, baseUrl, scopeOf(op))] });
            return;
          }
        }
      }
    },
  };
}

/** The fields of `document` that answer at `path` (list indices skipped), as graphql-js gathers them for an error. */
function fieldNodesAt(document: DocumentNode, operation: OperationDefinitionNode, path: readonly (string | number)[]): FieldNode[] {
  const fragments = new Map(
    document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]),
  );
  let sets: SelectionSetNode[] = [operation.selectionSet];
  let nodes: FieldNode[] = [];
  for (const key of path) {
    if (typeof key === 'number') continue;
    nodes = [];
    const walk = (set: SelectionSetNode) => {
      for (const sel of set.selections) {
        if (sel.kind === Kind.FIELD) {
          if ((sel.alias ?? sel.name).value === key) nodes.push(sel);
        } else if (sel.kind === Kind.INLINE_FRAGMENT) walk(sel.selectionSet);
        else {
          const fragment = fragments.get(sel.name.value);
          if (fragment) walk(fragment.selectionSet);
        }
      }
    };
    sets.forEach(walk);
    sets = nodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
  }
  return nodes;
}

/**
 * Runs the persisted documents compiled (graphql-jit): REST's and MCP's runs (their input
 * validated already, Context.validatedInput), and /graphql's calls of a persisted document
 * (Context.persistedCall), except operations whose Prisma selections Pothos plans from the
 * resolve info. A schedule of 200 entries resolves ~4,000 fields, a third of its CPU under
 * graphql-js, and a search's answer costs half as much to execute.
 *
 * /graphql's calls get graphql-js's answer: variables the compiled query refuses are coerced
 * again by graphql-js (nothing has run yet), so its sentences answer them; the errors of a run
 * are located as graphql-js locates them (their document `locations`, the cause a resolver threw,
 * `errors` before `data`). A value the schema's type cannot carry (a server bug) is answered as
 * an internal error there, where graphql-js would quote the scalar's complaint.
 */
function useCompiledExecution(jitted: ReadonlySet<string>): Plugin<Context> {
  const jit = useGraphQlJit({}, { enableIf: ({ contextValue, document, operationName }) => compiledFor(contextValue as Context, document, operationName) });
  function compiledFor(ctx: Context, document: DocumentNode, operationName: string | null | undefined): boolean {
    if (ctx.validatedInput === undefined && !ctx.persistedCall) return false;
    // Persisted documents hold one operation. The compiled query is kept per document, so one
    // compiled for another operation name (which fails) would be every later call's.
    const [operation, ...more] = document.definitions;
    if (more.length || operation?.kind !== Kind.OPERATION_DEFINITION || !operation.name) return false;
    return (operationName == null || operationName === operation.name.value) && jitted.has(operation.name.value);
  }
  return {
    onExecute(payload) {
      let compiled: ((args: typeof payload.args) => unknown) | undefined;
      void jit.onExecute!({ ...payload, setExecuteFn: (fn: unknown) => (compiled = fn as never) } as never);
      if (!compiled) return;
      const run = compiled;
      if (!(payload.args.contextValue as Context).persistedCall) return payload.setExecuteFn(run as never);
      const graphqlJs = payload.executeFn;
      payload.setExecuteFn((async (args: typeof payload.args) => {
        const result = (await run(args)) as ExecutionResult;
        if (!('data' in result)) return graphqlJs(args);
        if (!result.errors?.length) return result;
        const operation = args.document.definitions[0] as OperationDefinitionNode;
        const errors = result.errors.map((error) => {
          const path = error.path ?? [];
          return locatedError(error.originalError ?? new Error(error.message), fieldNodesAt(args.document, operation, path), path);
        });
        return { errors, data: result.data };
      }) as never);
    },
  };
}

/** Parse and validation errors are invalid input, in the same error language as every surface. */
const useInvalidInputCodes: Plugin<Context> = {
  onValidate: () => ({ result, setResult }) => {
    if (result.length) setResult(result.map((e) => toGraphQLError(e)));
  },
};

/**
 * No introspection in production. A validation rule on every document, rather than yoga's plugin,
 * which marks requests as they are parsed from HTTP and so let documents sent over WebSocket through.
 */
const useNoIntrospection: Plugin<Context> = {
  onValidate: ({ addValidationRule }) => addValidationRule(NoSchemaIntrospectionCustomRule),
};

/** The limits GraphQL Armor enforces per document. */
export const ARMOR = { aliases: 20, depth: 8, tokens: 2000, directives: 10, cost: 5000 } as const;

export type Yoga = YogaServerInstance<Record<string, unknown>, Context>;

const header = (request: Request, name: string) => request.headers.get(name)?.trim() || undefined;

/**
 * The one GraphQL pipeline. /graphql serves it over HTTP; REST and MCP run their persisted
 * documents through the same instance, so context, masking and plugins apply everywhere.
 */
export function createGraphQL(schema: GraphQLSchema, services: Services, documents: Map<string, string>, operations: Operation[]): Yoga {
  const jitted = new Set(operations.filter((op) => !op.planned).map((op) => op.name));
  return createYoga<Record<string, unknown>, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    // GraphiQL is served by graphqlHttp (below) from the npm package's built files, not yoga's CDN page.
    graphiql: false,
    landingPage: false,
    logging: false,
    maskedErrors: {
      maskError: (error) => {
        const mapped = withHeaders(error, services.config.baseUrl);
        if (mapped.extensions.code === 'internal') logInternalError(services.logger, error);
        return mapped;
      },
    },
    // CORS is the app's one policy (guards.ts apiCors); yoga's own reflects any origin with credentials.
    cors: false,
    context: async ({
      request,
      clientAddress,
      validatedInput,
      sharedAnswer,
      persistedCall,
    }: { request: Request; clientAddress?: string; validatedInput?: Context['validatedInput']; sharedAnswer?: Context['sharedAnswer']; persistedCall?: boolean }) => {
      const address = clientAddress ?? 'local';
      // The services last: in V8 each key added after a spread of this many costs ~3 µs a request.
      return {
        user: {
          name: header(request, 'x-user-name'),
          email: header(request, 'x-user-email'),
          phone: header(request, 'x-user-phone'),
        },
        clientName: header(request, 'x-client-name'),
        clientAddress: address,
        credential: await credentialOf(services, request, address),
        validatedInput,
        sharedAnswer,
        persistedCall,
        signal: request.signal,
        ...services,
      };
    },
    plugins: [
      // Bounds on what one document may ask for, so cost follows the budget each root field
      // charges (registry/guard.ts); the persisted documents stay well inside them.
      EnvelopArmorPlugin({
        // Counted by our own rule (below), which lets REST's and MCP's snake_case renames through.
        maxAliases: { enabled: false },
        maxDepth: { n: ARMOR.depth },
        maxTokens: { n: ARMOR.tokens },
        maxDirectives: { n: ARMOR.directives },
        costLimit: { maxCost: ARMOR.cost },
        blockFieldSuggestion: { enabled: true },
      }),
      { onValidate: ({ addValidationRule }) => addValidationRule(maxAliases(ARMOR.aliases)) } satisfies Plugin<Context>,
      ...(services.config.development ? [] : [useNoIntrospection]),
      useInvalidInputCodes,
      useCompiledExecution(jitted),
      useEarlyAccessCheck(operations, services.config.baseUrl),
      usePersistedOperations({
        // Clients may run an operation's persisted document by its name: {"documentId": "find_cleaners"}.
        getPersistedOperation: (key) => documents.get(key) ?? null,
        extractPersistedOperationId: (params) => {
          const p = params as { documentId?: string; extensions?: { persistedQuery?: { sha256Hash?: string } } };
          return p.documentId ?? p.extensions?.persistedQuery?.sha256Hash ?? null;
        },
        allowArbitraryOperations: true,
        customErrors: {
          // Neither a query nor a documentId (yoga's own message is "PersistedQueryKeyNotFound").
          keyNotFound: { message: GRAPHQL_USAGE, extensions: { code: 'invalid_input', http: { status: 400 } } },
          notFound: {
            message: 'No persisted document has that id. documentId is an operation name such as find_cleaners (the list is at /openapi.json), or send a query.',
            extensions: { code: 'invalid_input', http: { status: 400 } },
          },
        },
      }),
    ],
  });
}

/** A refusal in GraphQL's own error shape, `{errors: [{message, extensions: {code}}]}`. */
export function graphqlRefusal(status: number, message: string, code: string, headers: Record<string, string> = {}): Response {
  return Response.json({ errors: [{ message, extensions: { code } }] }, { status, headers });
}

/** What a request to /graphql that asks nothing is told: how to ask. */
export const GRAPHQL_USAGE =
  'This is the GraphQL endpoint. POST {"query": "…", "variables": {…}} as JSON (Content-Type: application/json), ' +
  'or GET /graphql?query=… for a query; {"documentId": "find_cleaners", "variables": {"input": {…}}} runs an operation\'s ' +
  'persisted document by its name (the operations are listed at /openapi.json).';

/** The asset files GraphiQL's page loads, by the name it asks for. */
const GRAPHIQL_FILES = {
  'graphiql.js': 'text/javascript; charset=utf-8',
  'graphiql.css': 'text/css; charset=utf-8',
  'favicon.ico': 'image/x-icon',
  'editor.worker.js': 'text/javascript; charset=utf-8',
  'json.worker.js': 'text/javascript; charset=utf-8',
  'graphql.worker.js': 'text/javascript; charset=utf-8',
} as const;
type GraphiQLFile = keyof typeof GRAPHIQL_FILES;
export const GRAPHIQL_ASSETS = '/graphql/assets/';

/**
 * GraphiQL's page: scripts and styles from this origin only (no CDN, nothing inline but the
 * editor's own style elements), so it renders offline. Monaco's workers are files of this origin.
 */
export const GRAPHIQL_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "worker-src 'self'",
  // The editor (Monaco) and GraphiQL's components add style elements and attributes as they draw.
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self' data:",
  "img-src 'self' data:",
  // 'self' covers the WebSocket subscriptions on this origin too.
  "connect-src 'self'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const GRAPHIQL_TITLE = 'Porchlight GraphQL';

const graphiqlPage = () => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${GRAPHIQL_TITLE}</title>
<link rel="icon" href="${GRAPHIQL_ASSETS}favicon.ico">
<link rel="stylesheet" href="${GRAPHIQL_ASSETS}graphiql.css">
</head>
<body id="body" class="no-focus-outline">
<noscript>GraphiQL needs JavaScript. Without it, POST {"query": "…"} to /graphql as JSON.</noscript>
<div id="root"></div>
<script src="${GRAPHIQL_ASSETS}graphiql.js"></script>
</body>
</html>
`;

/**
 * The files, from @graphql-yoga/render-graphiql (the build of @graphql-yoga/graphiql that yoga's
 * own page loads from a CDN), read once and only where GraphiQL is served. The page's script is
 * the bundle between the two lines yoga's page inlines around it.
 */
let graphiqlFiles: Promise<Record<GraphiQLFile, string | Uint8Array<ArrayBuffer>>> | undefined;
function loadGraphiQLFiles() {
  graphiqlFiles ??= import('@graphql-yoga/render-graphiql/graphiql').then((m) => {
    const setup = `self.MonacoEnvironment = { globalAPI: false, getWorkerUrl: (moduleId, label) => ${JSON.stringify(GRAPHIQL_ASSETS)} + ({ editorWorkerService: 'editor', json: 'json', graphql: 'graphql' }[label] || 'editor') + '.worker.js' };`;
    const start = `YogaGraphiQL.renderYogaGraphiQL(document.getElementById('root'), ${JSON.stringify({ title: GRAPHIQL_TITLE, endpoint: '/graphql' })});`;
    const icon = /^data:[^;]+;base64,(.*)$/.exec(m.favicon)?.[1] ?? '';
    return {
      'graphiql.js': `${setup}\n${m.js};\n${start}\n`,
      'graphiql.css': m.css,
      'favicon.ico': new Uint8Array(Buffer.from(icon, 'base64')),
      'editor.worker.js': m.editorWorkerService,
      'json.worker.js': m.jsonWorker,
      'graphql.worker.js': m.graphqlWorker,
    };
  });
  return graphiqlFiles;
}

/** One of GraphiQL's files (development only), or undefined for a name it does not have. */
export async function graphiqlAsset(name: string): Promise<Response | undefined> {
  if (!Object.hasOwn(GRAPHIQL_FILES, name)) return undefined;
  const body = (await loadGraphiQLFiles())[name as GraphiQLFile];
  return new Response(body, {
    headers: { 'content-type': GRAPHIQL_FILES[name as GraphiQLFile], 'cache-control': 'public, max-age=3600', 'x-content-type-options': 'nosniff' },
  });
}

/** The most a persisted call's body holds (an operation's input); larger bodies take yoga's whole path. */
const PERSISTED_CALL_BYTES = 65_536;

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The media types yoga's result processors answer in: streams, then a single JSON result. */
const RESULT_MEDIA_TYPES = [['text/event-stream'], ['multipart/mixed'], ['application/graphql-response+json', 'application/json']] as const;

/**
 * The JSON media type yoga answers a single result in for this Accept, or undefined when it would
 * stream it. As its useResultProcessors chooses: Accept's utf-8 types from last to first, the
 * last processor type matching any of them.
 */
function jsonMediaType(accept: string | null): string | undefined {
  const asked = (accept || '*/*')
    .replace(/\s/g, '')
    .toLowerCase()
    .split(',')
    .filter((type) => (type.split(';').slice(1).find((p) => p.includes('charset=')) ?? 'charset=utf-8') === 'charset=utf-8')
    .map((type) => type.split(';')[0]!.split('/'))
    .reverse();
  let chosen: string | undefined;
  for (const [i, types] of RESULT_MEDIA_TYPES.entries()) {
    for (const [pre, suf] of asked) {
      for (const type of types) {
        const [tPre, tSuf] = type.split('/');
        if ((pre === '*' || pre === tPre) && (suf === '*' || suf === tSuf)) chosen = i === RESULT_MEDIA_TYPES.length - 1 ? type : undefined;
      }
    }
  }
  return chosen;
}

/**
 * The parameters of a POST that runs a persisted document, when yoga would answer it exactly as
 * getResultForParams and its regular JSON processor do: `{documentId, variables?, operationName?}`
 * of the usual types, for a document that exists (never a subscription), answered in JSON. Its
 * onParams hooks (persisted operations, the parameter checks) and every execution plugin still
 * run. Anything else takes yoga's whole path.
 */
function persistedCall(request: Request, body: string, documents: ReadonlyMap<string, string>): { params: GraphQLParams; mediaType: string } | undefined {
  const mediaType = jsonMediaType(request.headers.get('accept'));
  if (!mediaType || body.length > PERSISTED_CALL_BYTES) return undefined;
  let params: unknown;
  try {
    params = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!isRecord(params)) return undefined;
  const { documentId, variables, operationName, ...rest } = params;
  if (typeof documentId !== 'string' || !documents.has(documentId) || Object.keys(rest).length) return undefined;
  if ((variables !== undefined && !isRecord(variables)) || (operationName !== undefined && typeof operationName !== 'string')) return undefined;
  return { params: params as GraphQLParams, mediaType };
}

/**
 * What persisted calls are answered with: the global Response, with the Content-Length yoga's own
 * (@whatwg-node's) gives a text. When served, the global is @hono/node-server's, which writes a
 * text at once; yoga's it would read back through a stream.
 */
const answers = {
  Response: function answer(body: string, init: ResponseInit) {
    const headers = new Headers(init.headers);
    headers.set('content-length', String(Buffer.byteLength(body)));
    return new Response(body, { ...init, headers });
  },
} as unknown as Yoga['fetchAPI'];

const GRAPHQL_METHODS = 'GET, HEAD, POST, OPTIONS';

/**
 * /graphql over HTTP: yoga, with what it would answer in another shape or not at all answered here
 * in GraphQL's error shape. POST bodies are JSON only: yoga also reads form and multipart bodies,
 * which a page on another site can send without asking (no CORS preflight, even from a plain
 * HTML form). A GET that asks nothing is told how to ask (yoga's answer names an internal
 * PersistedQueryKeyNotFound); in development a browser gets GraphiQL instead. HEAD answers as GET.
 */
export function graphqlHttp(yoga: Yoga, development: boolean, documents: ReadonlyMap<string, string>) {
  const handle = async (request: Request, clientAddress: string): Promise<Response> => {
    const method = request.method;
    if (method === 'POST') {
      if (!isJson(request.headers.get('content-type') ?? '')) return graphqlRefusal(415, notJson.error, notJson.code);
      const body = await request.text();
      const call = persistedCall(request, body, documents);
      // Yoga's own answer to a persisted call, without its HTTP reading and negotiation.
      if (call) return processRegularResult((await yoga.getResultForParams({ params: call.params, request }, { clientAddress, persistedCall: true })) as ExecutionResult, answers, call.mediaType);
      return yoga.fetch(new Request(request.url, { method, headers: request.headers, body, signal: request.signal }), { clientAddress });
    }
    if (method === 'OPTIONS') return yoga.fetch(request, { clientAddress });
    if (method !== 'GET') {
      return graphqlRefusal(405, `${method} is not served at /graphql: send queries with GET or POST, mutations with POST.`, 'method_not_allowed', { Allow: GRAPHQL_METHODS });
    }
    if (development && request.headers.get('accept')?.includes('text/html')) {
      return new Response(graphiqlPage(), {
        headers: { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': GRAPHIQL_POLICY, 'x-frame-options': 'DENY', 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' },
      });
    }
    const params = new URL(request.url).searchParams;
    if (!params.has('query') && !params.has('documentId') && !params.has('extensions')) return graphqlRefusal(400, GRAPHQL_USAGE, 'invalid_input');
    return yoga.fetch(request, { clientAddress });
  };
  return async (request: Request, clientAddress: string): Promise<Response> => {
    if (request.method !== 'HEAD') return handle(request, clientAddress);
    const answer = await handle(new Request(request.url, { method: 'GET', headers: request.headers, signal: request.signal }), clientAddress);
    await answer.body?.cancel();
    return new Response(null, { status: answer.status, headers: answer.headers });
  };
}
