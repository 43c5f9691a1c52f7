import { useEffect, useRef, type ReactNode } from 'react';
import { Link } from 'wouter';
import type { ActiveMemberPage } from '#shared/api/members.ts';
import { memePaths, pathTo } from '#shared/api/paths.ts';
import { getCharacter, type CharacterKey } from '#shared/characters.ts';
import { NEVER_A_TRANSACTION } from '#shared/holders.ts';
import { shortAddress } from '#shared/siws.ts';
import { STANDING_LABELS } from '#shared/standing.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { drawCharacterPreview } from '#client/lib/character-art.ts';
import { withQueryClient } from '#client/lib/query-client.tsx';
import { useDocumentTitle } from '#client/lib/document-title.ts';
import { useSession } from '#client/lib/session.ts';
import { useSite } from '#client/lib/site-config.ts';
import { HolderBadge } from '#client/ui/holder-badge.tsx';
import { MemeThumbnail } from '#client/ui/meme-thumbnail.tsx';
import { WhenLoaded } from '#client/ui/when-loaded.tsx';
import { AccountPanel } from './account-panel.tsx';
import { useMemberPage } from './members-api.ts';

function CharacterPortrait({ characterKey }: { characterKey: CharacterKey }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (canvas.current) drawCharacterPreview(canvas.current, characterKey);
  }, [characterKey]);
  return (
    <canvas
      ref={canvas}
      width={96}
      height={96}
      role="img"
      aria-label={`${getCharacter(characterKey).name}, the character they play`}
      className="h-24 w-24 shrink-0 rounded-xl bg-slate-800"
    />
  );
}

const monthYear = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { month: 'long', year: 'numeric' });

/** One of the member's records: a list of `items`, or `empty` when there is none yet. */
function Section<T>({
  title,
  items,
  empty,
  list: List = 'ul',
  className,
  children,
}: {
  title: string;
  items: readonly T[];
  empty: string;
  list?: 'ul' | 'ol';
  className: string;
  children: (item: T) => ReactNode;
}) {
  return (
    <section className="mt-8">
      <h2 className="mb-3 text-lg font-bold text-slate-100">{title}</h2>
      {items.length === 0 ? (
        <p className="text-sm text-slate-400">{empty}</p>
      ) : (
        <List className={className}>{items.map((item) => children(item))}</List>
      )}
    </section>
  );
}

function Active({ page }: { page: ActiveMemberPage }) {
  const { user } = useSession();
  const own = user?.username.toLowerCase() === page.username.toLowerCase();
  return (
    <>
      <header className="flex items-center gap-4">
        <CharacterPortrait characterKey={page.character} />
        <div className="min-w-0">
          <h1 className="flex flex-wrap items-center gap-2 text-3xl font-extrabold text-slate-100">
            {/* A flex item keeps its text's width unless allowed to shrink: a long name (up to
                32 characters, no spaces) ran off a phone's screen. */}
            <span className="min-w-0 wrap-anywhere">{page.username}</span>{' '}
            <HolderBadge tier={page.holder?.tier} />
          </h1>
          <p className="mt-1 text-sm text-slate-300">
            Member since {monthYear(page.memberSince)} · Standing: {STANDING_LABELS[page.standing]}{' '}
            · Plays as {getCharacter(page.character).name}
          </p>
          {page.wallet ? (
            <p className="mt-1 text-sm text-slate-400" title={page.wallet}>
              Wallet <span className="font-mono">{shortAddress(page.wallet)}</span>
            </p>
          ) : null}
        </div>
      </header>
      {own ? <AccountPanel /> : null}
      <Section
        title="Memes"
        items={page.memes}
        empty="No memes yet."
        className="grid grid-cols-2 gap-3 sm:grid-cols-3"
      >
        {(meme) => (
          <li key={meme.id}>
            <Link
              href={pathTo(memePaths.page, { id: meme.id })}
              className="block overflow-hidden rounded-xl border border-slate-800 bg-slate-900"
            >
              <MemeThumbnail
                meme={meme}
                className="aspect-[4/3] w-full bg-slate-950 object-contain"
              />
              <span className="block truncate px-3 pt-2 text-sm font-semibold text-slate-100">
                {meme.title}
              </span>
              <span className="block px-3 pb-2 text-xs text-slate-400">
                {meme.upvotes} up · {meme.downvotes} down
              </span>
            </Link>
          </li>
        )}
      </Section>
      <Section
        title="Best runs"
        items={page.bestRuns}
        empty="No ranked runs yet."
        list="ol"
        className="grid gap-2"
      >
        {(run) => (
          <li
            key={run.entryId}
            className="flex items-center gap-3 rounded-lg bg-slate-800/60 px-3 py-2 text-sm"
          >
            <span className="font-bold text-grind-300 tabular-nums">{run.score}</span>
            <span className="flex-1 text-slate-300">
              Level {run.level} · {run.week}
            </span>
            <a href={run.replay} className="font-semibold text-grind-300 hover:underline">
              Watch the replay
            </a>
          </li>
        )}
      </Section>
      <Section
        title="Weekly prizes won"
        items={page.prizeWeeks}
        empty="No weekly prize yet."
        className="grid gap-2"
      >
        {(prize) => (
          <li key={prize.week} className="rounded-lg bg-slate-800/60 px-3 py-2 text-sm">
            {prize.week}: {prize.prize}, paid{' '}
            {new Date(prize.paidAt).toLocaleDateString(undefined, { dateStyle: 'medium' })} ·{' '}
            <a
              href={prize.txUrl}
              target="_blank"
              rel="noopener noreferrer"
              className="text-grind-300 hover:underline"
            >
              the payment on chain
            </a>
          </li>
        )}
      </Section>
      <p className="mt-10 text-xs text-slate-400">{NEVER_A_TRANSACTION}</p>
    </>
  );
}

/** /u/<username>: a member's page (the server writes its card tags and its text for bots). */
function MemberProfile({ username, notFound }: { username: string; notFound: ReactNode }) {
  const site = useSite();
  const page = useMemberPage(username);
  const name = page.data?.username;
  useDocumentTitle(name ? `${name} - ${site.brand}` : undefined);

  if (page.error instanceof ApiError && page.error.status === 404) return notFound;
  return (
    <div className="mx-auto max-w-4xl px-4 py-8 sm:py-12" data-testid="member-page">
      <WhenLoaded
        read={page}
        failed="This page could not be loaded."
        placeholderClassName="h-24"
        placeholderLabel="Loading"
      >
        {(data) =>
          data.status === 'active' ? (
            <Active page={data} />
          ) : (
            <>
              <h1 className="text-3xl font-extrabold wrap-anywhere text-slate-100">
                {data.username}
              </h1>
              <p className="mt-3 text-slate-300">
                This account {data.status === 'suspended' ? 'is suspended' : 'was deleted'}.
              </p>
            </>
          )
        }
      </WhenLoaded>
    </div>
  );
}

export default withQueryClient(MemberProfile);
