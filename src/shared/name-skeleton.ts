import unhomoglyph from 'unhomoglyph';

/** Characters that draw nothing (soft hyphen, variation selectors, fillers, zero-width marks). */
const DEFAULT_IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * The form two player names share when a reader could take one for the other (Unicode TR39's
 * skeleton, made case-blind): `Аdmin` (Cyrillic А), `Ａdmin`, `Ad\u00ADmin`, `Admin\uFE0F` and
 * `adrnin` all give the skeleton of `admin`. NFKC first folds compatibility forms (fullwidth,
 * ligatures) and turns U+3164 into U+1160, which is why the invisible characters go after it;
 * the confusables table (unhomoglyph, from Unicode confusables.txt) then maps each character
 * to its prototype. Names are case-blind here as everywhere (`ADMIN` is `admin`), so the name
 * is lower-cased before the mapping (an upper-case `I` is then an `i`, not an `l`) and the
 * prototypes after it (`0` maps to `O`: `l0l` and `lOl` share a skeleton).
 */
export function nameSkeleton(name: string): string {
  const visible = name.normalize('NFKC').replace(DEFAULT_IGNORABLE, '').toLowerCase();
  return unhomoglyph(visible.normalize('NFD')).toLowerCase().normalize('NFD');
}
