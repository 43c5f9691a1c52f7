import { CATEGORY_FILTERS, type CategoryFilter } from '#shared/categories.ts';
import { cn } from '#client/ui/cn.ts';

export function CategoryFilterButtons({
  value,
  onChange,
}: {
  value: CategoryFilter;
  onChange: (value: CategoryFilter) => void;
}) {
  return (
    <div
      role="group"
      aria-label="Filter memes by category"
      className="flex flex-wrap justify-center gap-2"
    >
      {CATEGORY_FILTERS.map((filter) => {
        const active = filter.value === value;
        return (
          <button
            key={filter.value}
            type="button"
            aria-pressed={active}
            onClick={() => onChange(filter.value)}
            className={cn(
              'h-9 rounded-full border px-4 text-sm font-semibold transition-colors',
              active
                ? 'border-grind-500 bg-grind-500 text-slate-950'
                : 'border-slate-700 bg-slate-900 text-slate-300 hover:border-grind-500/60 hover:text-grind-300',
            )}
          >
            {filter.label}
          </button>
        );
      })}
    </div>
  );
}
