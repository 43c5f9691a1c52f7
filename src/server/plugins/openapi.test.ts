import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '#shared/api/error-codes.ts';
import { authPaths, gamePaths, memePaths, shopPaths } from '#shared/api/paths.ts';
import { createTestApp, suiteApp } from '#test-support/test-app.ts';

describe('the OpenAPI document', () => {
  const t = suiteApp('sqlite');

  it('describes every API route from its zod schemas', async () => {
    const res = await t.app.inject('/api/openapi.json');
    expect(res.statusCode).toBe(200);
    const doc = res.json<{
      openapi: string;
      paths: Record<
        string,
        Record<
          string,
          {
            requestBody?: {
              content: Record<
                string,
                { schema: { properties?: Record<string, unknown>; required?: string[] } }
              >;
            };
          }
        >
      >;
    }>();
    expect(doc.openapi).toBe('3.1.0');
    const openApiPath = (pattern: string) => pattern.replace(/:(\w+)/g, '{$1}');
    for (const path of [
      authPaths.login,
      authPaths.me,
      shopPaths.purchase,
      gamePaths.scores,
      gamePaths.leaderboard,
      memePaths.list,
      memePaths.vote,
    ]) {
      expect(Object.keys(doc.paths), path).toContain(openApiPath(path));
    }
    const login =
      doc.paths[authPaths.login]!.post!.requestBody!.content['application/json']!.schema;
    expect(login.required).toEqual(expect.arrayContaining(['username', 'password']));
    expect(Object.keys(doc.paths)).not.toContain('/healthz');
  });

  it('documents an endpoint whole: summary, operation id, who may call it, each refusal', async () => {
    const doc = (await t.app.inject('/api/openapi.json')).json<{
      paths: Record<string, Record<string, Record<string, unknown>>>;
      components: { securitySchemes: Record<string, unknown> };
    }>();
    const vote = doc.paths['/api/memes/{id}/vote']!.post!;
    expect(vote.operationId).toBe('voteOnMeme');
    expect(vote.summary).toMatch(/vote/i);
    expect(vote.tags).toEqual(['gallery']);
    expect(Object.keys(vote.responses as object)).toEqual(
      expect.arrayContaining(['200', '400', '403', '404', '429', '503']),
    );
    expect(doc.components.securitySchemes.session).toMatchObject({ type: 'apiKey', in: 'cookie' });
  });

  it("describes the refusals' body once, under components, with every code", async () => {
    const doc = (await t.app.inject('/api/openapi.json')).json<{
      paths: Record<string, Record<string, { responses: Record<string, { content?: unknown }> }>>;
      components: { schemas: { ApiError: { properties: { code: { enum: string[] } } } } };
    }>();
    expect(doc.components.schemas.ApiError.properties.code.enum).toEqual([...ERROR_CODES]);
    const refusals = Object.values(doc.paths).flatMap((operations) =>
      Object.values(operations).flatMap((operation) =>
        Object.entries(operation.responses)
          .filter(([status]) => Number(status) >= 400)
          .map(([, response]) => response.content),
      ),
    );
    expect(refusals.length).toBeGreaterThan(100);
    for (const content of refusals) {
      expect(content).toEqual({
        'application/json': { schema: { $ref: '#/components/schemas/ApiError' } },
      });
    }
  });

  it('refuses to build an app with an API route that has no endpoint object', async () => {
    const fresh = await createTestApp('sqlite');
    try {
      expect(() => fresh.app.get('/api/unlisted', async () => 'x')).toThrow(
        'GET /api/unlisted has no endpoint object',
      );
      // A page or file route is not the API's, nor in its document.
      expect(() => fresh.app.get('/unlisted', async () => 'x')).not.toThrow();
      const doc = (await fresh.app.inject('/api/openapi.json')).json<{ paths: object }>();
      expect(Object.keys(doc.paths).filter((path) => !path.startsWith('/api/'))).toEqual([]);
      expect(Object.keys(doc.paths).length).toBeGreaterThan(50);
    } finally {
      await fresh.close();
    }
  });

  it("passes Redocly's recommended rules with no error and no warning", async () => {
    const source = (await t.app.inject('/api/openapi.json')).body;
    const problems = await lintFromString({
      source,
      absoluteRef: 'openapi.json',
      config: await createConfig({ extends: ['recommended'] }),
    });
    const found = problems.map(
      (p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}`,
    );
    expect(found).toEqual([]);
  });
});
