import { Check, Coins, Crown, Sparkles } from 'lucide-react';
import type { Character } from '#shared/characters.ts';
import { Button } from '#client/ui/button.tsx';
import { cn } from '#client/ui/cn.ts';
import type { CardState } from './card-state.ts';
import { CharacterPreview } from './character-preview.tsx';

/** Decorative golden sparkles around a legendary character's portrait. */
function GoldenSparkles() {
  return (
    <div aria-hidden className="pointer-events-none absolute inset-0">
      <Sparkles className="absolute top-1 left-2 h-5 w-5 text-grind-300 motion-safe:animate-pulse" />
      <Sparkles className="absolute top-8 right-1 h-4 w-4 text-grind-400 motion-safe:animate-pulse [animation-delay:400ms]" />
      <Sparkles className="absolute bottom-2 left-6 h-3.5 w-3.5 text-grind-200 motion-safe:animate-pulse [animation-delay:800ms]" />
    </div>
  );
}

export function CharacterCard({
  character,
  state,
  onPurchase,
  onSelect,
}: {
  character: Character;
  state: CardState;
  onPurchase: () => void;
  onSelect: () => void;
}) {
  const titleId = `character-${character.key}-name`;
  const { action } = state;
  return (
    <li>
      <article
        aria-labelledby={titleId}
        data-testid={`character-card-${character.key}`}
        data-owned={state.owned}
        data-selected={state.selected}
        className={cn(
          // Phones: portrait on the left, details on the right; wider screens: a column.
          'relative grid h-full grid-cols-[auto_minmax(0,1fr)] items-center gap-x-4 gap-y-1.5 rounded-2xl border p-4 text-left',
          'sm:flex sm:flex-col sm:gap-3 sm:p-5 sm:text-center',
          character.legendary
            ? 'border-grind-400/80 bg-gradient-to-b from-grind-500/25 via-slate-900 to-slate-900 shadow-[0_0_28px_-4px_rgba(251,191,36,0.45)]'
            : 'border-slate-700 bg-slate-900',
          state.selected && 'ring-2 ring-grind-400 ring-offset-2 ring-offset-slate-950',
        )}
      >
        <div className="col-start-2 flex min-h-6 w-full items-center justify-between gap-2">
          {character.legendary ? (
            <span className="inline-flex items-center gap-1 rounded-full bg-grind-400 px-2 py-0.5 text-xs font-bold tracking-wide text-slate-950 uppercase">
              <Crown className="h-3.5 w-3.5" aria-hidden /> Legendary
            </span>
          ) : (
            <span />
          )}
          {state.badge === 'Selected' ? (
            <span className="inline-flex items-center gap-1 rounded-full bg-grind-500 px-2 py-0.5 text-xs font-bold text-slate-950">
              <Check className="h-3.5 w-3.5" aria-hidden /> Selected
            </span>
          ) : state.badge === 'Owned' ? (
            <span className="rounded-full border border-emerald-500/60 bg-emerald-500/15 px-2 py-0.5 text-xs font-bold text-emerald-300">
              Owned
            </span>
          ) : null}
        </div>

        <div
          className={cn(
            'relative col-start-1 row-span-4 row-start-1 flex h-24 w-24 items-center justify-center rounded-full sm:h-32 sm:w-32',
            character.legendary ? 'bg-grind-500/15' : 'bg-slate-800/80',
          )}
        >
          {character.legendary ? <GoldenSparkles /> : null}
          <CharacterPreview
            characterKey={character.key}
            name={character.name}
            animate={character.legendary}
            className="h-20 w-20 sm:h-28 sm:w-28"
          />
        </div>

        <h2
          id={titleId}
          className={cn(
            'col-start-2 text-lg leading-tight font-bold',
            character.legendary ? 'text-grind-200' : 'text-slate-100',
          )}
        >
          {character.name}
        </h2>
        <p className="col-start-2 flex items-center gap-1.5 font-semibold text-grind-300 sm:justify-center">
          <Coins className="h-4 w-4" aria-hidden />
          {character.price === 0 ? 'Free' : `${character.price.toLocaleString('en-US')} coins`}
        </p>

        <div className="col-start-2 mt-auto w-full pt-1">
          <Button
            className="w-full"
            variant={
              action.kind === 'purchase'
                ? action.label.startsWith('Need')
                  ? 'secondary'
                  : 'primary'
                : state.selected
                  ? 'secondary'
                  : 'outline'
            }
            disabled={action.disabled}
            onClick={action.kind === 'purchase' ? onPurchase : onSelect}
          >
            {action.label}
          </Button>
        </div>
      </article>
    </li>
  );
}
