import { MEME_SORT_LABELS, MEME_SORTS, type MemeSort } from '#shared/api/memes.ts';
import { cn } from '#client/ui/cn.ts';

export function SortButtons({
  value,
  onChange,
}: {
  value: MemeSort;
  onChange: (value: MemeSort) => void;
}) {
  return (
    <div
      role="group"
      aria-label="Sort memes"
      className="mx-auto flex w-fit rounded-xl border border-slate-700 bg-slate-900 p-1"
    >
      {MEME_SORTS.map((sort) => (
        <button
          key={sort}
          type="button"
          aria-pressed={sort === value}
          onClick={() => onChange(sort)}
          className={cn(
            'h-9 rounded-lg px-3 text-sm font-semibold transition-colors sm:px-4',
            sort === value ? 'bg-slate-700 text-grind-300' : 'text-slate-400 hover:text-slate-100',
          )}
        >
          {MEME_SORT_LABELS[sort]}
        </button>
      ))}
    </div>
  );
}
