// Browser storage can be missing or refuse writes (private modes, quotas): the game then simply
// forgets, it never breaks.

const NAME_KEY = 'grind.leaderboardName';
const HIGH_SCORE_KEY = 'grind.highScore';

function read(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    globalThis.localStorage?.setItem(key, value);
  } catch {
    // Not kept; asked again next time.
  }
}

export const readLeaderboardName = () => read(NAME_KEY);
export const writeLeaderboardName = (name: string) => write(NAME_KEY, name);

export function forgetLeaderboardName(): void {
  try {
    globalThis.localStorage?.removeItem(NAME_KEY);
  } catch {
    // Nothing kept, nothing to forget.
  }
}

export function readHighScore(): number {
  const value = Number(read(HIGH_SCORE_KEY));
  return Number.isSafeInteger(value) && value > 0 ? value : 0;
}

export const writeHighScore = (score: number) => write(HIGH_SCORE_KEY, String(score));
