import { describe, expect, it } from 'vitest';
import { LOOK_ALIKES_OF_ADMIN } from '#test-support/look-alike-names.ts';
import { nameSkeleton } from './name-skeleton.ts';

describe('nameSkeleton', () => {
  it.each([...LOOK_ALIKES_OF_ADMIN, ['zero-width joiner', 'Adm\u200Din']])(
    'gives %s the skeleton of admin',
    (_form, name) => {
      expect(nameSkeleton(name)).toBe(nameSkeleton('admin'));
    },
  );

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
