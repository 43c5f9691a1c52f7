import { cn } from '#client/ui/cn.ts';

const LOOKS = {
  segmented: {
    group: 'mx-auto flex w-fit rounded-xl border border-slate-700 bg-slate-900 p-1',
    button: 'h-9 rounded-lg px-3 text-sm font-semibold transition-colors sm:px-4',
    chosen: 'bg-slate-700 text-grind-300',
    other: 'text-slate-400 hover:text-slate-100',
  },
  pills: {
    group: 'flex flex-wrap justify-center gap-2',
    button: 'h-9 rounded-full border px-4 text-sm font-semibold transition-colors',
    chosen: 'border-grind-500 bg-grind-500 text-slate-950',
    other:
      'border-slate-700 bg-slate-900 text-slate-300 hover:border-grind-500/60 hover:text-grind-300',
  },
} as const;

/** A row of buttons of which one is chosen (aria-pressed): the gallery's sort and its filter. */
export function ChoiceButtons<T extends string>({
  label,
  options,
  value,
  onChange,
  look,
}: {
  label: string;
  options: ReadonlyArray<{ value: T; label: string }>;
  value: T;
  onChange: (value: T) => void;
  look: keyof typeof LOOKS;
}) {
  const classes = LOOKS[look];
  return (
    <div role="group" aria-label={label} className={classes.group}>
      {options.map((option) => {
        const chosen = option.value === value;
        return (
          <button
            key={option.value}
            type="button"
            aria-pressed={chosen}
            onClick={() => onChange(option.value)}
            className={cn(classes.button, chosen ? classes.chosen : classes.other)}
          >
            {option.label}
          </button>
        );
      })}
    </div>
  );
}
