import { STANDING_HOW, STANDING_LABELS, type Standing } from '#shared/standing.ts';
import { cn } from './cn.ts';

const TONE = {
  new: 'border-amber-700 text-amber-300',
  member: 'border-slate-600 text-slate-300',
  trusted: 'border-emerald-700 text-emerald-300',
} as const;

/** A member's standing beside their name (the console's pages, the account menu). */
export function StandingBadge({ standing }: { standing: Standing | undefined }) {
  if (!standing) return null;
  const label = `${STANDING_LABELS[standing.level]}${standing.provenWallet ? ' · wallet' : ''}`;
  return (
    <span
      data-testid="standing-badge"
      title={`Standing: ${label}. ${STANDING_HOW[standing.level]}`}
      className={cn(
        'ml-1 inline-block rounded-full border px-1.5 text-[11px] leading-4 font-medium whitespace-nowrap',
        TONE[standing.level],
      )}
    >
      {label}
    </span>
  );
}
