import { describe, expect, it } from 'vitest';
import { voteTransition } from './vote-rules.ts';

describe('voteTransition', () => {
  it.each([
    [null, 'up', 'up', 1, 0],
    [null, 'down', 'down', 0, 1],
    ['up', 'up', null, -1, 0],
    ['down', 'down', null, 0, -1],
    ['up', 'down', 'down', -1, 1],
    ['down', 'up', 'up', 1, -1],
  ] as const)('%s then %s gives %s (%i up, %i down)', (current, requested, next, up, down) => {
    expect(voteTransition(current, requested)).toEqual({ next, upvotes: up, downvotes: down });
  });
});
