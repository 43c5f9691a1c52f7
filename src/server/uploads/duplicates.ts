import type { Kysely } from 'kysely';
import { memePaths, pathTo } from '#shared/api/paths.ts';
import type { Database } from '../db/database.ts';
import { HttpError } from '../http-error.ts';
import { memeHashes } from '../memes/repository.ts';
import { hammingDistance, SAME_PICTURE_MAX_DISTANCE } from './perceptual-hash.ts';

/**
 * The refusal for a repost, or null when the picture is new: an upload whose perceptual hash
 * lies within SAME_PICTURE_MAX_DISTANCE bits of an existing meme's (resized, re-encoded, a
 * GIF's first frame, slightly cropped). A shown meme is linked (in the message and a
 * `Link: <...>; rel="duplicate"` header, RFC 6249); a hidden one is not, but still counts, so
 * a picture under review or taken down cannot come straight back. A linear scan: 64-bit XORs
 * over every meme take well under a millisecond per thousand memes.
 */
export async function findSamePicture(
  db: Kysely<Database>,
  phash: string,
): Promise<HttpError | null> {
  let closest: { id: number; hidden: number; distance: number } | null = null;
  for (const meme of await memeHashes(db)) {
    const distance = hammingDistance(phash, meme.phash);
    if (distance <= SAME_PICTURE_MAX_DISTANCE && (!closest || distance < closest.distance)) {
      closest = { id: meme.id, hidden: meme.hidden, distance };
    }
  }
  if (!closest) return null;
  if (closest.hidden) {
    return new HttpError(
      409,
      'This picture has been removed from the gallery and cannot be posted again.',
      'DUPLICATE_MEME',
    );
  }
  const page = pathTo(memePaths.page, { id: closest.id });
  return new HttpError(409, `This meme is already in the gallery: ${page}`, 'DUPLICATE_MEME', {
    link: `<${page}>; rel="duplicate"`,
  });
}
