import { ArrowLeft, Coins, Gamepad2, Lock } from 'lucide-react';
import { useEffect, useMemo } from 'react';
import { Link, useLocation } from 'wouter';
import { characters, DEFAULT_CHARACTER_KEY, type CharacterKey } from '#shared/characters.ts';
import { useHydrating } from '#client/lib/hydrate-later.ts';
import { scrollToSection } from '#client/lib/scroll-to-section.ts';
import { recheckSession, useSession } from '#client/lib/session.ts';
import { toast } from '#client/lib/toast-store.ts';
import { buttonClasses } from '#client/ui/button.tsx';
import { cardState } from './card-state.ts';
import { CharacterCard } from './character-card.tsx';
import {
  isUnauthorized,
  useOwnedCharacters,
  usePurchaseCharacter,
  useSelectCharacter,
  useUserProfile,
} from './shop-api.ts';
import { withQueryClient } from '#client/lib/query-client.tsx';

function LoggedOut() {
  return (
    <div className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-5 px-4 py-16 text-center">
      <div className="flex h-14 w-14 items-center justify-center rounded-full bg-slate-800 text-grind-300">
        <Lock className="h-7 w-7" aria-hidden />
      </div>
      <h1 className="text-2xl font-bold text-slate-100">
        Please log in to access the character shop
      </h1>
      <Link href="/" className={buttonClasses('primary', 'lg')}>
        Return to Home
      </Link>
    </div>
  );
}

function CardSkeletons() {
  return (
    <ul
      aria-hidden
      className="mt-8 grid grid-cols-1 gap-5 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4"
    >
      {characters.map((c) => (
        <li
          key={c.key}
          className="h-80 animate-pulse rounded-2xl border border-slate-800 bg-slate-900"
        />
      ))}
    </ul>
  );
}

/** Tells the member once when a read fails; a 401 means the session ended, which the page shows. */
function useLoadErrorToast(error: Error | null, description: string) {
  useEffect(() => {
    if (!error) return;
    if (isUnauthorized(error)) {
      void recheckSession();
      return;
    }
    toast({ description, variant: 'destructive' });
  }, [error, description]);
}

function MemberShop() {
  const [, navigate] = useLocation();
  const profile = useUserProfile(true);
  const owned = useOwnedCharacters(true);
  const purchase = usePurchaseCharacter();
  const select = useSelectCharacter();

  useLoadErrorToast(profile.error, 'Failed to load profile data. Please refresh the page.');
  useLoadErrorToast(
    owned.error,
    'Failed to load owned characters. Some features may not work correctly.',
  );

  const ownedKeys = useMemo(
    () => new Set<CharacterKey>((owned.data ?? []).map((o) => o.characterKey)),
    [owned.data],
  );
  const coins = profile.data?.coins ?? 0;
  const snapshot = {
    coins,
    owned: ownedKeys,
    selected: profile.data?.selectedCharacterKey ?? DEFAULT_CHARACTER_KEY,
    purchasing: purchase.isPending ? (purchase.variables ?? null) : null,
    selecting: select.isPending ? (select.variables ?? null) : null,
  };

  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:py-14">
      <header className="flex flex-col gap-6 md:flex-row md:items-end md:justify-between">
        <div className="max-w-2xl">
          <h1 className="text-3xl font-extrabold text-grind-300 sm:text-4xl">Character Shop</h1>
          <p className="mt-2 text-slate-300">
            Spend the coins you collect in the game on new workers. The character you select flies
            in every round you play.
          </p>
        </div>
        <div
          className="flex items-center gap-2 self-start rounded-full border border-grind-500/50 bg-grind-500/10 px-5 py-2.5 text-lg font-bold text-grind-200 md:self-auto"
          data-testid="coin-balance"
          aria-live="polite"
        >
          <Coins className="h-5 w-5 text-grind-400" aria-hidden />
          {profile.isPending ? (
            <span className="inline-block h-5 w-16 animate-pulse rounded bg-grind-500/30" />
          ) : (
            <span>{profile.data ? `${coins.toLocaleString('en-US')} coins` : '— coins'}</span>
          )}
        </div>
      </header>

      <nav aria-label="Shop" className="mt-6 flex flex-wrap gap-3">
        <Link href="/" className={buttonClasses('secondary')}>
          <ArrowLeft className="h-4 w-4" aria-hidden /> Back to Game
        </Link>
        <a
          href="/#game"
          className={buttonClasses('primary')}
          onClick={(event) => {
            if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
            event.preventDefault();
            scrollToSection('game', navigate);
          }}
        >
          <Gamepad2 className="h-4 w-4" aria-hidden /> Play Game to Earn Coins
        </a>
      </nav>

      {profile.isPending || owned.isPending ? (
        <CardSkeletons />
      ) : (
        <ul className="mt-8 grid grid-cols-1 gap-5 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
          {characters.map((character) => (
            <CharacterCard
              key={character.key}
              character={character}
              state={cardState(character, snapshot)}
              onPurchase={() => purchase.mutate(character.key)}
              onSelect={() => select.mutate(character.key)}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

function ShopView() {
  const { isAuthenticated, isLoading } = useSession();
  // The server renders the loading state; the browser does too until it has taken it over.
  const hydrating = useHydrating();
  if (isLoading || hydrating) {
    return (
      <div className="mx-auto max-w-7xl px-4 py-10">
        <noscript>
          <p className="text-center text-lg text-slate-300">
            The character shop needs JavaScript: turn it on to log in and spend your coins.
          </p>
        </noscript>
        <CardSkeletons />
      </div>
    );
  }
  return isAuthenticated ? <MemberShop /> : <LoggedOut />;
}

export default withQueryClient(ShopView);
