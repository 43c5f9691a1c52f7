import { ArrowLeft, Coins, Gamepad2, Lock } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import {
  characters,
  DEFAULT_CHARACTER_KEY,
  holderCharacters,
  type CharacterKey,
} from '#shared/characters.ts';
import { memberPaths, pathTo } from '#shared/api/paths.ts';
import { NEVER_A_TRANSACTION } from '#shared/holders.ts';
import { useHydrating } from '#client/lib/hydrate-later.ts';
import { accountQuery } from '#client/lib/query-keys.ts';
import { useSite } from '#client/lib/site-config.ts';
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
  const account = useQuery({ ...accountQuery, retry: false });
  const holderBadge = account.data?.holder?.badge ?? null;

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
    holder: holderBadge !== null,
  };
  const card = (character: (typeof characters)[number]) => (
    <CharacterCard
      key={character.key}
      character={character}
      state={cardState(character, snapshot)}
      onPurchase={() => purchase.mutate(character.key)}
      onSelect={() => select.mutate(character.key)}
    />
  );

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
        <ul
          className="mt-8 grid grid-cols-1 gap-5 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4"
          data-testid="catalogue"
        >
          {characters.map(card)}
        </ul>
      )}

      <HoldersRow
        username={profile.data?.username}
        badgeLabel={holderBadge?.label ?? null}
        cards={holderCharacters.map(card)}
      />
    </div>
  );
}

/**
 * The Holders row (docs/decisions/029-holders-at-home.md): characters sold, for coins, to a
 * member whose proven wallet holds the site's token; apart from the catalogue above.
 */
function HoldersRow({
  username,
  badgeLabel,
  cards,
}: {
  username: string | undefined;
  badgeLabel: string | null;
  cards: ReactNode;
}) {
  const site = useSite();
  const least = `${site.holders.tiers.holder.minTokens.toLocaleString('en-US')} ${site.ticker}`;
  return (
    <section aria-labelledby="holders-row" className="mt-12" data-testid="holders-row">
      <h2 id="holders-row" className="text-2xl font-extrabold text-grind-300">
        Holders
      </h2>
      <p className="mt-2 max-w-2xl text-slate-300">
        {badgeLabel ? (
          <>
            As a {badgeLabel} of {site.ticker} you may buy these with your coins.
          </>
        ) : (
          <>
            For members whose proven wallet holds at least {least}. Link a wallet and check it from{' '}
            {username ? (
              <Link
                href={pathTo(memberPaths.page, { username })}
                className="font-semibold text-grind-300 hover:underline"
              >
                your page
              </Link>
            ) : (
              'your page'
            )}
            .
          </>
        )}
      </p>
      <p className="mt-1 text-xs text-slate-400">{NEVER_A_TRANSACTION}</p>
      <ul className="mt-6 grid grid-cols-1 gap-5 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
        {cards}
      </ul>
    </section>
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
