import type { Kysely } from 'kysely';
import { memePaths, pathTo } from '#shared/api/paths.ts';
import type { Database } from '../db/database.ts';
import { HttpError } from '../http-error.ts';
import { pictureHashes, type PictureState } from '../memes/repository.ts';
import { blockedHashes } from '../memes/blocklist.ts';
import { hammingDistance, SAME_PICTURE_MAX_DISTANCE } from './perceptual-hash.ts';

/**
 * The refusal for a repost, or null when the picture is new: an upload whose perceptual hash
 * lies within SAME_PICTURE_MAX_DISTANCE bits of a known picture's (resized, re-encoded, a
 * GIF's first frame, slightly cropped). A linear scan: 64-bit XORs over every meme take well
 * under a millisecond per thousand memes. What the answer says depends on where the closest
 * picture stands (docs/decisions/020-reporters-and-visitor-votes.md):
 * - shown: linked (in the message and a `Link: <...>; rel="duplicate"` header, RFC 6249);
 * - hidden by reports, waiting for the operator: not removed, so nobody is told it was; its
 *   owner is told their meme is under review and comes back if the reports were wrong, anyone
 *   else to try after the review (a second copy would dodge the review's outcome);
 * - hidden or deleted by the operator: removed, and it cannot come back.
 */
export async function findSamePicture(
  db: Kysely<Database>,
  phash: string,
  uploaderId: number,
): Promise<HttpError | null> {
  let closest: { memeId: number; state: PictureState; ownerId: number | null } | null = null;
  let closestDistance = Infinity;
  const [pictures, blocked] = await Promise.all([pictureHashes(db), blockedHashes(db)]);
  // The blocklist (memes/blocklist.ts): other communities' removed pictures, refused as ours are.
  const known = [
    ...pictures,
    ...blocked.map((phash) => ({ memeId: 0, phash, state: 'removed' as const, ownerId: null })),
  ];
  for (const picture of known) {
    const distance = hammingDistance(phash, picture.phash);
    if (distance <= SAME_PICTURE_MAX_DISTANCE && distance < closestDistance) {
      closest = picture;
      closestDistance = distance;
    }
  }
  if (!closest) return null;
  if (closest.state === 'removed') {
    return new HttpError(
      409,
      'This picture has been removed from the gallery and cannot be posted again.',
      'DUPLICATE_MEME',
    );
  }
  if (closest.state === 'under-review') {
    return new HttpError(
      409,
      closest.ownerId === uploaderId
        ? 'Your meme with this picture is hidden while the moderators review reports about it. It comes back to the gallery if they find nothing wrong.'
        : 'This picture is waiting for a moderator to review it. Please try again later.',
      'MEME_UNDER_REVIEW',
    );
  }
  const page = pathTo(memePaths.page, { id: closest.memeId });
  return new HttpError(409, `This meme is already in the gallery: ${page}`, 'DUPLICATE_MEME', {
    link: `<${page}>; rel="duplicate"`,
  });
}
