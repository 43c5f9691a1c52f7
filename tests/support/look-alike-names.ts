/** Spellings that read as `admin`: the forms issue 19's audit had accepted, and a few more. */
export const LOOK_ALIKES_OF_ADMIN: [form: string, name: string][] = [
  ['upper case', 'ADMIN'],
  ['Cyrillic А', '\u0410dmin'],
  ['Cyrillic а and і', '\u0430dm\u0456n'],
  ['fullwidth Ａ', '\uFF21dmin'],
  ['soft hyphen', 'Ad\u00ADmin'],
  ['variation selector', 'Admin\uFE0F'],
  ['Hangul filler', 'Admin\u3164'],
  ['zero-width space', 'Ad\u200Bmin'],
  ['rn for m', 'adrnin'],
];
