import type { Meme } from '#shared/api/memes.ts';
import { memePaths, pathTo } from '#shared/api/paths.ts';

export type ShareResult = 'shared' | 'copied' | 'cancelled' | 'failed';

/** The meme's own page: what a friend opens from a chat, and what a link preview shows. */
function memeLink(meme: Pick<Meme, 'id'>, origin = window.location.origin): string {
  return new URL(pathTo(memePaths.page, { id: meme.id }), origin).toString();
}

/** The device's share sheet when there is one, else the link on the clipboard. */
export async function shareMeme(meme: Pick<Meme, 'id' | 'title'>): Promise<ShareResult> {
  const url = memeLink(meme);
  if (typeof navigator.share === 'function') {
    try {
      await navigator.share({
        title: meme.title,
        text: `${meme.title} - from the Daily Grind meme gallery`,
        url,
      });
      return 'shared';
    } catch (error) {
      // Closing the sheet is a choice, not a failure; anything else falls back to copying.
      if (error instanceof DOMException && error.name === 'AbortError') return 'cancelled';
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    return 'copied';
  } catch {
    return 'failed';
  }
}
