/**
 * Text people type for others to read (meme titles, leaderboard names): no control characters
 * (PostgreSQL's text type cannot even hold NUL, and the rest garble terminals and logs), no
 * half of a surrogate pair (stored as U+FFFD, so not what was sent) and no bidi overrides or
 * isolates, which can make a text display as another.
 */
export const DISPLAYABLE_TEXT = /^[^\p{Cc}\p{Cs}\u202A-\u202E\u2066-\u2069]*$/u;

/**
 * Characters that show as nothing (zero-width spaces and joiners, direction marks, word joiners,
 * the BOM): inside a name they make a second name that reads exactly like the first.
 */
export const INVISIBLE_CHARACTERS = /[\u200B-\u200F\u2060-\u2064\uFEFF]/u;

/** Row ids are 32-bit integers (PostgreSQL's serial): a larger one names no row. */
export const MAX_ROW_ID = 2_147_483_647;
