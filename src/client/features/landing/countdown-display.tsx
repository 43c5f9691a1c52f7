import { pad2, type CountdownParts } from '#shared/time.ts';
import { cn } from '#client/ui/cn.ts';

const UNITS = [
  ['days', 'Days'],
  ['hours', 'Hours'],
  ['minutes', 'Minutes'],
  ['seconds', 'Seconds'],
] as const;

/**
 * Four two-digit boxes ("--" until there is a time to show). role="timer" is not announced on
 * every tick, which is what we want.
 */
export function CountdownDisplay({
  parts,
  label,
  testId,
  className,
}: {
  parts: CountdownParts | null;
  label: string;
  testId: string;
  className?: string;
}) {
  return (
    <div
      role="timer"
      aria-label={label}
      data-testid={testId}
      className={cn('grid grid-cols-4 gap-2 sm:gap-3', className)}
    >
      {UNITS.map(([unit, name]) => (
        <div
          key={unit}
          className="rounded-xl border border-slate-700/80 bg-slate-950/70 px-1 py-3 text-center shadow-inner shadow-black/40"
        >
          <span
            data-unit={unit}
            className="block font-mono text-3xl font-black text-grind-300 tabular-nums sm:text-4xl"
          >
            {parts ? pad2(parts[unit]) : '--'}
          </span>
          <span className="mt-1 block text-[0.65rem] font-semibold tracking-widest text-slate-400 uppercase sm:text-xs">
            {name}
          </span>
        </div>
      ))}
    </div>
  );
}
