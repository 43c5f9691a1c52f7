import type { Meme } from '#shared/api/memes.ts';

/**
 * A meme's thumbnail, named by the meme's title: its stored size holds its box before it loads,
 * and it loads only as it nears the screen.
 */
export function MemeThumbnail({
  meme,
  className,
  decoding,
}: {
  meme: Pick<Meme, 'thumbnailUrl' | 'thumbnailWidth' | 'thumbnailHeight' | 'title'>;
  className: string;
  decoding?: 'async';
}) {
  return (
    <img
      src={meme.thumbnailUrl}
      width={meme.thumbnailWidth}
      height={meme.thumbnailHeight}
      alt={meme.title}
      loading="lazy"
      decoding={decoding}
      className={className}
    />
  );
}
