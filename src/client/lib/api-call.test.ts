import { describe, expect, it } from 'vitest';
import { voteEndpoint } from '#shared/api/memes.ts';
import { endpointUrl } from './api-call.ts';

describe('endpointUrl', () => {
  it("fills the endpoint's params and adds its query", () => {
    expect(endpointUrl(voteEndpoint, { params: { id: 7 }, body: { voteType: 'up' } })).toBe(
      '/api/memes/7/vote',
    );
  });

  it('refuses, at compile time, a body or params the endpoint does not declare', () => {
    // @ts-expect-error voteType must be 'up' or 'down'
    endpointUrl(voteEndpoint, { params: { id: 7 }, body: { voteType: 'sideways' } });
    // @ts-expect-error the vote endpoint needs its meme id
    endpointUrl(voteEndpoint, { body: { voteType: 'up' } });
    expect(true).toBe(true);
  });
});
