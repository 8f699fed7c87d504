import type { SwaggerTransform } from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { API_TOKEN_PREFIX, isFileResponse, isRedirectResponse, type Endpoint } from '@hublink/contract';
import { apiTokenScopes } from './guard';

/** Any answer but a success: a code of spec 1 §8 and its message (DESIGN.md §4). */
const refusal = z.object({ code: z.number(), msg: z.string() });

/** The refusals that change the HTTP status too. */
const failure = refusal.describe('A refusal: HTTP 401 for codes 2001–2003, 429 for too many requests, 500 for an internal error');

/** HTTP 200 carries the success and every other refusal (204 not found, 422 invalid, 423, 401/403 of a flow). */
function envelopeOf(endpoint: Endpoint, data: z.ZodType) {
  const success = z.object({ code: z.literal(200), msg: z.string(), data, ...(endpoint.paged ? { count: z.number() } : {}) });
  const answer = endpoint.paged ? 'a page of the list in data, its total in count' : 'the answer in data';
  return z.union([success, refusal]).describe(`code 200: ${answer}; otherwise a refusal`);
}

/** The document's frame: what it is and how a caller authenticates (docs/api.md walks through it). */
export const OPENAPI_DOCUMENT = {
  info: {
    title: 'HubLink API',
    version: '1',
    description:
      'Every answer is the envelope { code, msg, data?, count? }. Calls but the public ones need `Authorization: Bearer <token>`: ' +
      `a console session's access token, or a personal API token (${API_TOKEN_PREFIX}…) a main account creates in the console (account menu, API tokens). ` +
      "A token's scope is 'read' (the main account's GET calls) or 'role' (a role's permissions, as a sub-account of that role has them). " +
      'Each call names the scopes that may use it in x-api-token-scopes. 2001 unknown or revoked token (or its role deleted), 2002 expired, 2003 account disabled, all with HTTP 401.',
  },
  components: {
    securitySchemes: {
      bearer: {
        type: 'http',
        scheme: 'bearer',
        description: `A console access token (JWT from /login/authorization) or a personal API token (${API_TOKEN_PREFIX} followed by 43 characters); the member calls (/self/*) take a member's self-service session token (/self/login) instead.`,
      },
    },
  },
} as const;

/** Who may call: public calls no token; others the bearer scheme, with the API token scopes allowed. */
function securityOf(endpoint: Endpoint) {
  if (endpoint.access === 'public') return { security: [] };
  return { security: [{ bearer: [] }], 'x-api-token-scopes': apiTokenScopes(endpoint) };
}

/**
 * The swagger transform: a call's request schemas as fastify-type-provider-zod writes them, and its
 * answers from its contract endpoint. The answer schemas reach the document only: a response schema on
 * the route itself would have Fastify serialize (validate, strip) every answer at runtime.
 */
export const openApiTransform: SwaggerTransform = (input) => {
  const endpoint = input.route.config?.endpoint;
  if (!endpoint) return jsonSchemaTransform(input);
  const out = documented(input, endpoint);
  return { ...out, schema: { ...out.schema, ...securityOf(endpoint) } };
};

function documented(input: Parameters<SwaggerTransform>[0], endpoint: Endpoint): ReturnType<typeof jsonSchemaTransform> {
  const { response } = endpoint;
  if (isRedirectResponse(response)) {
    // A step a browser opens: success is the redirect, a refusal an envelope with HTTP 200 (or, for a
    // download that may be kept elsewhere, the file).
    const out = jsonSchemaTransform({ ...input, schema: { ...input.schema, response: { 200: refusal.describe('A refusal'), default: failure } } });
    const redirect = { description: `302 to ${response.redirect}`, headers: { location: { schema: { type: 'string', format: 'uri' } } } };
    const documented = out.schema.response as { 200: object; default: { description?: string } };
    const answers = isFileResponse(response) ? { ...documented, 200: fileAnswer(response.file, documented.default) } : documented;
    return { ...out, schema: { ...out.schema, response: { 302: redirect, ...answers } } };
  }
  const answers = isFileResponse(response) ? { default: failure } : { 200: envelopeOf(endpoint, response), default: failure };
  const out = jsonSchemaTransform({ ...input, schema: { ...input.schema, response: answers } });
  if (!isFileResponse(response)) return out;
  const documented = out.schema.response as { default: { description?: string } };
  return { ...out, schema: { ...out.schema, response: { 200: fileAnswer(response.file, documented.default), ...documented } } };
}

/** A download answers the file; a refusal still comes as an envelope with HTTP 200. */
function fileAnswer(contentType: string, documentedRefusal: { description?: string }) {
  const { description: _, ...envelope } = documentedRefusal;
  return {
    description: 'The file; a refusal comes as an envelope',
    content: { [contentType]: { schema: { type: 'string', format: 'binary' } }, 'application/json': { schema: envelope } },
  };
}
