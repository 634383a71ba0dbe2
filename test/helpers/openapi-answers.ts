import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

/**
 * Every JSON answer under /api, checked against the schema the API's OpenAPI document gives for its
 * route and status (src/server/http/openapi.ts): an answer the document does not describe, or
 * describes otherwise, is a mismatch, which `onMismatch` is told of. Added to every test app
 * (test-app.ts), so the whole API suite checks the document against what the shop answers.
 */
export function checkAnswersAgainstOpenApi(app: FastifyInstance, onMismatch: (mismatch: string) => void): void {
  let checker: Checker | undefined;
  // Made as the app gets ready, not by a test's first call, which a test may time (a cache's lifetime).
  app.addHook('onReady', async () => {
    checker = checkerOf(app);
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const route = request.routeOptions.url;
    if (!checker || route === undefined || !route.startsWith('/api/') || request.method === 'HEAD') return payload;
    // The document itself and its reference page are not in it.
    if (route === '/api/openapi.json' || route.startsWith('/api/docs')) return payload;
    if (!/json/.test(String(reply.getHeader('content-type') ?? ''))) return payload;
    // A compressed answer is a stream by now; the same answers uncompressed are checked.
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const status = String(reply.statusCode);
    const answer = `${request.method} ${route} answered ${status}`;
    const responses = checker.responsesOf(request.method, route);
    if (!responses) return (onMismatch(`${answer}, a route the OpenAPI document does not describe`), payload);
    const documented = [status, `${status[0]}XX`, 'default'].find((key) => key in responses);
    if (!documented) return (onMismatch(`${answer}, a status the OpenAPI document does not list`), payload);
    const validate = responses[documented];
    if (!validate) return (onMismatch(`${answer}, JSON the OpenAPI document does not describe`), payload);
    let body: unknown;
    try {
      body = JSON.parse(payload.toString());
    } catch {
      return (onMismatch(`${answer}, with a body that is not JSON`), payload);
    }
    if (!validate(body)) {
      onMismatch(`${answer}, unlike the OpenAPI document: ${JSON.stringify(validate.errors)}`);
    }
    return payload;
  });
}

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

/** For each route and status, a validator of its JSON answer, or undefined where it has none. */
interface Checker {
  responsesOf(method: string, route: string): Record<string, ValidateFunction | undefined> | undefined;
}

/**
 * The document's answers, compiled with Ajv (JSON Schema 2020-12, as OpenAPI 3.1's schemas are),
 * once for every app with the same routes: the document takes seconds to make on a busy machine,
 * and a test file builds many apps alike. Each distinct schema is compiled once (the error answers
 * share one).
 */
const checkers = new Map<string, Checker>();
function checkerOf(app: FastifyInstance): Checker {
  const routes = app.printRoutes({ commonPrefix: false });
  const known = checkers.get(routes);
  if (known) return known;
  const document = app.swagger() as { paths?: Record<string, Record<string, Operation>> };
  // Not strict: the document's schemas carry OpenAPI's own words (description, example) beside JSON Schema's.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats.default(ajv);
  ajv.addSchema(document, 'openapi.json');
  const bySchema = new Map<string, ValidateFunction>();
  const operations = new Map<string, Record<string, ValidateFunction | undefined>>();
  for (const [path, methods] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(methods)) {
      const responses: Record<string, ValidateFunction | undefined> = {};
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const schema = response.content?.['application/json']?.schema;
        if (schema === undefined) {
          responses[status] = undefined;
          continue;
        }
        const key = JSON.stringify(schema);
        let validate = bySchema.get(key);
        if (!validate) {
          const pointer = ['paths', path, method, 'responses', status, 'content', 'application/json', 'schema'];
          validate = ajv.getSchema(
            `openapi.json#/${pointer.map((part) => encodeURIComponent(escapePointer(part))).join('/')}`,
          );
          if (!validate) throw new Error(`Ajv could not compile the answer to ${method} ${path} ${status}`);
          bySchema.set(key, validate);
        }
        responses[status] = validate;
      }
      operations.set(`${method.toUpperCase()} ${path}`, responses);
    }
  }
  const checker: Checker = {
    responsesOf: (method, route) => operations.get(`${method} ${route.replace(/:(\w+)/g, '{$1}')}`),
  };
  checkers.set(routes, checker);
  return checker;
}

function escapePointer(part: string): string {
  return part.replaceAll('~', '~0').replaceAll('/', '~1');
}
