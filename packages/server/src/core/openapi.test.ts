import { isFileResponse, isRedirectResponse } from '@hublink/contract';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/helpers';

interface Schema {
  type?: string;
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  format?: string;
}
interface Operation {
  security?: Record<string, string[]>[];
  'x-api-token-scopes'?: string[];
  responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }>;
}
interface Document {
  info: { description?: string };
  components?: { securitySchemes?: Record<string, { type: string; scheme?: string }> };
  paths: Record<string, Record<string, Operation>>;
}

describeEachDatabase('the OpenAPI document', (t) => {
  it('describes the answer of every call of the contract: the envelope with its data, or the file', async () => {
    const res = await t().app.inject({ method: 'GET', url: '/api/v1/openapi.json' });
    const doc = res.json<Document>();
    expect(t().app.endpoints.length).toBeGreaterThan(0);
    for (const { url, endpoint } of t().app.endpoints) {
      const op = doc.paths[url]?.[endpoint.method.toLowerCase()];
      expect(op, url).toBeDefined();
      if (isRedirectResponse(endpoint.response)) {
        expect(op!.responses['302']?.description, url).toBe(`302 to ${endpoint.response.redirect}`);
        expect(op!.responses['200']?.content?.['application/json']?.schema.required, url).toEqual(['code', 'msg']);
        continue;
      }
      const answer = op!.responses['200']!;
      expect(answer.description, url).not.toBe('Default Response');
      if (isFileResponse(endpoint.response)) {
        expect(answer.content?.[endpoint.response.file]?.schema, url).toEqual({ type: 'string', format: 'binary' });
        expect(answer.content?.['application/json']?.schema.required, url).toEqual(['code', 'msg']);
        continue;
      }
      const [success, refusal] = answer.content?.['application/json']?.schema.anyOf ?? [];
      expect(success?.required, url).toEqual(endpoint.paged ? ['code', 'msg', 'data', 'count'] : ['code', 'msg', 'data']);
      expect(Object.keys(success?.properties?.data ?? {}), url).not.toEqual([]);
      expect(refusal?.required, url).toEqual(['code', 'msg']);
      expect(op!.responses.default?.content?.['application/json']?.schema.required, url).toEqual(['code', 'msg']);
    }
  });

  it("writes each call's data as its contract does", async () => {
    const doc = (await t().app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json<Document>();
    const data = (path: string, method = 'get') => doc.paths[`/api/v1${path}`]![method]!.responses['200']!.content!['application/json']!.schema.anyOf![0]!.properties!.data!;
    const network = data('/network/lists').items!;
    expect(network.type).toBe('object');
    expect(network.required).toEqual(['network_number', 'network_name', 'network_type', 'member_count', 'fr_name', 'network_status', 'create_time']);
    expect(data('/ram_role/create', 'post').required).toEqual(['id']);
    // A call that answers no data answers null.
    expect(data('/login/logout', 'post')).toMatchObject({ nullable: true, enum: [null] });
  });

  it('describes the bearer scheme and which API tokens may make each call', async () => {
    const doc = (await t().app.inject({ method: 'GET', url: '/api/v1/openapi.json' })).json<Document>();
    expect(doc.components?.securitySchemes?.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.info.description).toContain('hlk_');
    for (const { url, endpoint } of t().app.endpoints) {
      const op = doc.paths[url]![endpoint.method.toLowerCase()]!;
      if (endpoint.access === 'public') expect(op.security, url).toEqual([]);
      else expect(op.security, url).toEqual([{ bearer: [] }]);
    }
    const scopes = (path: string, method = 'get') => doc.paths[`/api/v1${path}`]![method]!['x-api-token-scopes'];
    expect(scopes('/network/lists')).toEqual(['read', 'role']);
    expect(scopes('/ram/lists')).toEqual(['read']);
    expect(scopes('/network/create', 'post')).toEqual(['role']);
    expect(scopes('/ram/create', 'post')).toEqual([]);
    expect(scopes('/api_token/lists')).toEqual([]);
    expect(scopes('/api_token/create', 'post')).toEqual([]);
    expect(scopes('/login/logout', 'post')).toEqual([]);
  });
});
