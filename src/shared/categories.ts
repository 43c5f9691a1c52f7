/** The meme categories, in the order the filter buttons show them (tests/e2e/gallery.spec.ts). */
export const MEME_CATEGORIES = [
  { value: 'office-life', label: 'Office Life' },
  { value: 'work-from-home', label: 'Work From Home' },
  { value: 'monday-motivation', label: 'Monday Motivation' },
  { value: 'coffee-culture', label: 'Coffee Culture' },
  { value: 'overtime', label: 'Overtime' },
  { value: 'success', label: 'Success' },
] as const;

export type MemeCategory = (typeof MEME_CATEGORIES)[number]['value'];

export const MEME_CATEGORY_VALUES = MEME_CATEGORIES.map((c) => c.value) as [
  MemeCategory,
  ...MemeCategory[],
];

/** "all" only ever filters; a meme cannot be uploaded into it. */
export const ALL_CATEGORIES = 'all' as const;
export type CategoryFilter = MemeCategory | typeof ALL_CATEGORIES;

export const CATEGORY_FILTERS: readonly { value: CategoryFilter; label: string }[] = [
  { value: ALL_CATEGORIES, label: 'All' },
  ...MEME_CATEGORIES,
];

export function isMemeCategory(value: unknown): value is MemeCategory {
  return MEME_CATEGORIES.some((c) => c.value === value);
}

export function categoryLabel(value: string): string {
  return MEME_CATEGORIES.find((c) => c.value === value)?.label ?? value;
}
