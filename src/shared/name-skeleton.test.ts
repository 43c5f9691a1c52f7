import { describe, expect, it } from 'vitest';
import { nameSkeleton } from './name-skeleton.ts';

describe('nameSkeleton', () => {
  it.each([
    ['Cyrillic А', '\u0410dmin'],
    ['Cyrillic а and і', '\u0430dm\u0456n'],
    ['fullwidth Ａ', '\uFF21dmin'],
    ['soft hyphen', 'Ad\u00ADmin'],
    ['variation selector', 'Admin\uFE0F'],
    ['Hangul filler', 'Admin\u3164'],
    ['zero-width space', 'Ad\u200Bmin'],
    ['zero-width joiner', 'Adm\u200Din'],
    ['upper case', 'ADMIN'],
    ['rn for m', 'adrnin'],
  ])('gives %s the skeleton of admin', (_form, name) => {
    expect(nameSkeleton(name)).toBe(nameSkeleton('admin'));
  });

  it('folds 0 and O alike whatever the case', () => {
    expect(nameSkeleton('lOl')).toBe(nameSkeleton('l0l'));
    expect(nameSkeleton('LOL')).toBe(nameSkeleton('l0l'));
  });

  it('keeps names a reader tells apart distinct', () => {
    expect(nameSkeleton('admin')).not.toBe(nameSkeleton('admins'));
    expect(nameSkeleton('admin')).not.toBe(nameSkeleton('adnim'));
    expect(nameSkeleton('Ádmin')).not.toBe(nameSkeleton('admin'));
  });
});
