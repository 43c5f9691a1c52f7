import { z } from 'zod';
import { characterKeys } from '#shared/characters.ts';

export const characterKeySchema = z.enum(characterKeys);

/**
 * Any string up to a sane length: an unknown key is a 404 (the catalogue has no such
 * character), not a 400, so the service decides rather than the schema.
 */
export const characterParamsSchema = z.object({
  key: z.string().min(1, 'Character key is required').max(64, 'Character key is too long'),
});
export type CharacterParams = z.infer<typeof characterParamsSchema>;

export const userProfileSchema = z.object({
  username: z.string(),
  coins: z.number().int().min(0),
  selectedCharacterKey: characterKeySchema,
});
export type UserProfile = z.infer<typeof userProfileSchema>;

export const ownedCharacterSchema = z.object({ characterKey: characterKeySchema });
export type OwnedCharacter = z.infer<typeof ownedCharacterSchema>;

/** Always holds `default`, in catalogue order. */
export const ownedCharactersSchema = z.array(ownedCharacterSchema);

/** Everything the shop shows after a purchase, so the page updates without asking again. */
export const purchaseResponseSchema = z.object({
  profile: userProfileSchema,
  characters: ownedCharactersSchema,
});
export type PurchaseResponse = z.infer<typeof purchaseResponseSchema>;

export const selectResponseSchema = userProfileSchema;
export type SelectResponse = z.infer<typeof selectResponseSchema>;
