import { z } from 'zod';
import { allCharacterKeys } from '#shared/characters.ts';
import { defineEndpoint, endpointGroup } from './endpoint.ts';
import { shopPaths } from './paths.ts';

export const characterKeySchema = z.enum(allCharacterKeys);

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

/** The shop: a member's, each endpoint with its own words for the 401 a visitor gets. */
const shop = endpointGroup({ tag: 'shop', access: 'member' });
/** A character of the catalogue, by its key. */
const onCharacter = endpointGroup(shop, {
  params: characterParamsSchema,
  errors: { 404: ['UNKNOWN_CHARACTER'] },
});

export const profileEndpoint = defineEndpoint(shop, {
  method: 'GET',
  path: shopPaths.profile,
  id: 'getUserProfile',
  summary: "The signed-in member's coins and selected character",
  signIn: 'Please log in to view your profile.',
  response: userProfileSchema,
});

export const ownedCharactersEndpoint = defineEndpoint(shop, {
  method: 'GET',
  path: shopPaths.characters,
  id: 'listOwnedCharacters',
  summary: 'The characters the signed-in member owns',
  signIn: 'Please log in to view your characters.',
  response: ownedCharactersSchema,
});

export const purchaseEndpoint = defineEndpoint(onCharacter, {
  method: 'POST',
  path: shopPaths.purchase,
  id: 'purchaseCharacter',
  summary: 'Buy a character with coins; answers the new profile and collection',
  signIn: 'Please log in to purchase characters.',
  response: purchaseResponseSchema,
  refuses: { suspended: true },
  errors: {
    400: ['NOT_ENOUGH_COINS'],
    403: ['HOLDERS_ONLY'],
    409: ['ALREADY_OWNED'],
  },
});

export const selectEndpoint = defineEndpoint(onCharacter, {
  method: 'POST',
  path: shopPaths.select,
  id: 'selectCharacter',
  summary: 'Play as an owned character; answers the new profile',
  signIn: 'Please log in to select characters.',
  response: selectResponseSchema,
  errors: { 403: ['NOT_OWNED'] },
});
