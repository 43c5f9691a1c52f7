import { describe, expect, it } from 'vitest';
import { tiedScores } from './leaderboard-ties.ts';

describe('tiedScores', () => {
  it('names every score two or more entries share, and nothing else', () => {
    const scores = [9900, 9900, 9900, 4200, 310, 310, 12].map((score) => ({ score }));
    expect([...tiedScores(scores)]).toEqual([9900, 310]);
    expect(tiedScores([{ score: 9900 }, { score: 4200 }]).size).toBe(0);
    expect(tiedScores([]).size).toBe(0);
  });
});
