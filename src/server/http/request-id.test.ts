import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { requestIdGenerator } from './request-id.ts';

const request = (headers: Record<string, string> = {}) =>
  ({ headers }) as unknown as IncomingMessage;

describe('requestIdGenerator', () => {
  it('gives every request its own id, and two nodes never the same ones', () => {
    const nodeA = requestIdGenerator(false);
    const nodeB = requestIdGenerator(false);
    const ids = Array.from({ length: 1000 }, (_, i) => (i % 2 ? nodeA : nodeB)(request()));
    expect(new Set(ids).size).toBe(1000);
    expect(ids.every((id) => /^[0-9a-f]{12}-[0-9a-z]+$/.test(id))).toBe(true);
  });

  it("takes a trusted proxy's well-formed X-Request-ID and nothing else", () => {
    const behindProxy = requestIdGenerator(true);
    expect(behindProxy(request({ 'x-request-id': 'lb-7f3a_01' }))).toBe('lb-7f3a_01');
    for (const bad of ['', 'has space', 'a'.repeat(65), '"}{"level":60']) {
      expect(behindProxy(request({ 'x-request-id': bad }))).not.toBe(bad);
    }
    expect(requestIdGenerator(false)(request({ 'x-request-id': 'lb-7f3a_01' }))).not.toBe(
      'lb-7f3a_01',
    );
  });
});
