/** Where processed images are served: `/objects/<key>` (see the objects route). */
export const OBJECTS_PREFIX = '/objects/';

/** The only keys the objects route serves: processed, content-addressed meme images. */
const SERVABLE_KEY = /^memes\/[0-9a-f]{64}(?:-thumb)?\.(?:jpg|png|gif|webp)$/;

export function isServableKey(key: string): boolean {
  return SERVABLE_KEY.test(key);
}

export function objectPathForKey(key: string): string {
  return `${OBJECTS_PREFIX}${key}`;
}

/** The object key an objectPath names, or null when it is not a servable image path. */
export function keyFromObjectPath(path: string): string | null {
  if (!path.startsWith(OBJECTS_PREFIX)) return null;
  const key = path.slice(OBJECTS_PREFIX.length);
  return isServableKey(key) ? key : null;
}
