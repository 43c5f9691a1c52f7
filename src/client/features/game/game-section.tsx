import { useQueryClient } from '@tanstack/react-query';
import { Coins, Gauge, Play, Trophy } from 'lucide-react';
import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type KeyboardEvent as ReactKeyboardEvent,
  type ReactNode,
} from 'react';
import { DEFAULT_CHARACTER_KEY, type CharacterKey } from '#shared/characters.ts';
import { openAuthDialog } from '#client/lib/auth-dialog-store.ts';
import { leaderboardQueryRoot, userProfileQueryKey } from '#client/lib/query-keys.ts';
import { useSession } from '#client/lib/session.ts';
import { useSite } from '#client/lib/site-config.ts';
import { toast } from '#client/lib/toast-store.ts';
import { Button } from '#client/ui/button.tsx';
import { cn } from '#client/ui/cn.ts';
import { FeatureHeading, PageSection } from '#client/ui/page-section.tsx';
import {
  forgetLeaderboardName,
  readHighScore,
  readLeaderboardName,
  writeHighScore,
  writeLeaderboardName,
} from './browser-storage.ts';
import { handleFinishedRound } from './end-of-round.ts';
import { addCoins, loadSelectedCharacter, requestRun, submitScore } from './game-api.ts';
import { GameController } from './game-controller.ts';
import type { FinishedRound } from './game-session.ts';
import { formatFlightTime, useHud, type HudSnapshot } from './hud-store.ts';
import { NamePromptDialog } from './name-prompt-dialog.tsx';
import { withQueryClient } from '#client/lib/query-client.tsx';

function features(prize: string): string[] {
  return [
    'Dodge cubicles, windows and doors',
    'Collect coins to spend on characters in the shop',
    'Speed rises with your score: +1 every tick, +10 per obstacle',
    'Eleven characters to fly, Pudge included',
    `Weekly leaderboard with a ${prize} prize`,
    'Every score is replayed and checked by the server',
  ];
}

function randomSeed(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0]!;
}

function isEditable(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  );
}

const isJumpKey = (event: KeyboardEvent | ReactKeyboardEvent) =>
  event.code === 'Space' || event.key === ' ' || event.key === 'ArrowUp';

interface NameRequest {
  score: number;
  resolve: (name: string | null) => void;
}

/** The game: canvas, controls, stats and tiles. The page passes the leaderboard in. */
function GameSection({ leaderboard }: { leaderboard?: ReactNode }) {
  const { user } = useSession();
  const queryClient = useQueryClient();
  const [game] = useState(() => new GameController(readHighScore()));
  const session = game.session;
  const snapshot = useHud(game.hud);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const playfieldRef = useRef<HTMLDivElement>(null);
  const roundRef = useRef(0);
  const [nameRequest, setNameRequest] = useState<NameRequest | null>(null);

  // Read by the end-of-round handler, which outlives the render that started the round.
  const userRef = useRef(user);
  useEffect(() => {
    userRef.current = user;
  }, [user]);

  useEffect(() => {
    const canvas = canvasRef.current;
    return canvas ? game.attach(canvas) : undefined;
  }, [game]);

  // Keys jump wherever the focus is while a round is on, except in a text field.
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isJumpKey(event) || isEditable(event.target)) return;
      if (session.phase !== 'countdown' && session.phase !== 'running') return;
      event.preventDefault();
      if (!event.repeat) session.jump();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [session]);

  const askName = useCallback(
    (score: number) => new Promise<string | null>((resolve) => setNameRequest({ score, resolve })),
    [],
  );

  useEffect(
    () =>
      session.onFinished((round: FinishedRound) => {
        const score = round.summary.score;
        const highScore = Math.max(score, game.hud.getSnapshot().highScore);
        if (score > readHighScore()) writeHighScore(score);
        game.hud.sync(session, performance.now(), highScore);
        void handleFinishedRound(round, {
          username: userRef.current?.username ?? null,
          storedName: readLeaderboardName,
          storeName: writeLeaderboardName,
          forgetName: forgetLeaderboardName,
          promptName: () => askName(score),
          submitScore,
          addCoins,
          toast,
          settleProgress: (runId) => game.settleProgress(runId),
          onScoreSubmitted: () =>
            void queryClient.invalidateQueries({ queryKey: leaderboardQueryRoot }),
          onCoinsSaved: () => void queryClient.invalidateQueries({ queryKey: userProfileQueryKey }),
        });
      }),
    [game, session, queryClient, askName],
  );

  const start = async () => {
    if (!session.start()) return;
    const round = ++roundRef.current;
    // On a phone the playfield may sit partly under the sticky header or off screen.
    playfieldRef.current?.scrollIntoView({ block: 'nearest' });
    playfieldRef.current?.focus({ preventScroll: true });
    game.hud.sync(session, performance.now());
    game.ensureLoop();
    const character = userRef.current
      ? loadSelectedCharacter(queryClient)
      : Promise.resolve<CharacterKey>(DEFAULT_CHARACTER_KEY);
    const ticket = requestRun().then(
      (run) => ({ runId: run.runId, seed: run.seed }),
      // Offline or refused: the round is still played, only not recorded.
      () => ({ runId: null, seed: randomSeed() }),
    );
    const [key, issued] = await Promise.all([character, ticket]);
    if (roundRef.current !== round) return;
    game.setCharacter(key);
    session.provideTicket(issued);
  };

  const playing = snapshot.phase === 'countdown' || snapshot.phase === 'running';

  return (
    <PageSection id="game" className="bg-slate-950 py-16 sm:py-20">
      <FeatureHeading sectionId="game" title="Office Escape">
        Fly the worker through the office, grab the coins and top this week&apos;s leaderboard.
      </FeatureHeading>

      <div className="mt-10 grid grid-cols-1 gap-8 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="mx-auto w-full max-w-[700px] space-y-4">
          <GameStats hud={snapshot} />
          <div
            ref={playfieldRef}
            tabIndex={-1}
            // A ring, not a border: it takes no room, so the canvas gets the column's full 700 px.
            className="relative scroll-mt-20 scroll-mb-4 overflow-hidden rounded-xl bg-slate-900 outline-none ring-1 ring-slate-700 focus-visible:ring-2 focus-visible:ring-grind-400"
            onKeyDown={(event) => {
              // Space would scroll the page while the game has focus.
              if (isJumpKey(event)) event.preventDefault();
            }}
          >
            <canvas
              ref={canvasRef}
              width={700}
              height={400}
              className={cn('block aspect-[7/4] w-full', playing && 'touch-none')}
              aria-label="Game area: press Space, Arrow Up, click or tap to fly"
              role="img"
              onPointerDown={(event) => {
                if (!playing) return;
                event.preventDefault();
                session.jump();
              }}
            />
            <GameOverlay hud={snapshot} />
          </div>
          <div className="flex justify-center">
            <Button size="lg" onClick={() => void start()} disabled={playing}>
              <Play className="h-5 w-5" aria-hidden /> Start Game
            </Button>
          </div>
          <GameTiles hud={snapshot} />
        </div>

        <aside className="space-y-6">
          {leaderboard}
          <GameFeatures />
          {user ? null : (
            <div className="rounded-xl border border-grind-500/40 bg-grind-500/10 p-4 text-sm text-grind-100">
              <p>
                Playing as a visitor: your coins are not saved.{' '}
                <button
                  type="button"
                  className="font-semibold text-grind-300 underline underline-offset-2"
                  onClick={() => openAuthDialog('login')}
                >
                  Sign in
                </button>{' '}
                to save the coins you collect and spend them in the shop.
              </p>
            </div>
          )}
        </aside>
      </div>
      {/* A portal: where it stands in the tree does not move it on the page. */}
      <NamePromptDialog
        open={nameRequest !== null}
        score={nameRequest?.score ?? 0}
        onAnswer={(name) => {
          nameRequest?.resolve(name);
          setNameRequest(null);
        }}
      />
    </PageSection>
  );
}

function GameStats({ hud }: { hud: HudSnapshot }) {
  const flying = hud.phase === 'running';
  const stats = [
    { label: 'Score', value: String(hud.score), icon: Trophy, id: 'score' },
    { label: 'Speed', value: hud.speed.toFixed(1), icon: Gauge, id: 'speed' },
    { label: 'Coins', value: String(hud.coins), icon: Coins, id: 'coins' },
  ];
  return (
    <dl className="grid grid-cols-4 gap-2 text-center">
      {stats.map(({ label, value, icon: Icon, id }) => (
        <div key={label} className="rounded-lg border border-slate-800 bg-slate-900 px-2 py-2">
          <dt className="flex items-center justify-center gap-1 text-xs text-slate-400">
            <Icon className="hidden h-3.5 w-3.5 sm:block" aria-hidden /> {label}
          </dt>
          <dd className="text-lg font-bold text-slate-100 tabular-nums" data-testid={`game-${id}`}>
            {value}
          </dd>
        </div>
      ))}
      <div className="rounded-lg border border-slate-800 bg-slate-900 px-2 py-2">
        <dt className="text-xs text-slate-400">Status</dt>
        <dd
          data-testid="game-status"
          className={cn('text-lg font-bold', flying ? 'text-emerald-400' : 'text-grind-300')}
        >
          {flying ? 'Flying' : 'Ready'}
        </dd>
      </div>
    </dl>
  );
}

function GameOverlay({ hud }: { hud: HudSnapshot }) {
  if (hud.phase === 'running') return null;
  if (hud.phase === 'countdown') {
    return (
      <div className="pointer-events-none absolute inset-0 flex items-center justify-center bg-slate-950/30">
        <span
          role="status"
          data-testid="game-countdown"
          className="text-7xl font-black text-grind-300 drop-shadow-lg sm:text-8xl"
        >
          {hud.countdown}
        </span>
      </div>
    );
  }
  const over = hud.phase === 'over';
  return (
    <div
      data-testid="game-instructions"
      className="pointer-events-none absolute inset-0 flex items-center justify-center bg-slate-950/60 p-4"
    >
      <div className="max-w-sm text-center">
        <p className="text-xl font-bold text-grind-300 sm:text-2xl">
          {over ? `Game Over! Score: ${hud.score}` : 'Ready to grind?'}
        </p>
        <p className="mt-2 text-xs text-slate-200 sm:text-sm">
          Press <kbd className="rounded bg-slate-700 px-1">Space</kbd> or{' '}
          <kbd className="rounded bg-slate-700 px-1">↑</kbd>, click or tap to fly. Dodge the
          cubicles, windows and doors, and collect coins on the way.
        </p>
        <p className="mt-2 hidden text-xs text-slate-400 sm:block">
          Press Start Game below to begin.
        </p>
      </div>
    </div>
  );
}

function GameTiles({ hud }: { hud: HudSnapshot }) {
  const tiles = [
    { label: 'High Score', value: String(hud.highScore) },
    { label: 'Obstacles Passed', value: String(hud.obstaclesPassed) },
    { label: 'Worker Position', value: `${hud.workerY}px` },
    { label: 'Flight Time', value: formatFlightTime(hud.flightSeconds) },
  ];
  return (
    <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
      {tiles.map(({ label, value }) => (
        <div
          key={label}
          className="rounded-lg border border-slate-800 bg-slate-900/60 p-3 text-center"
        >
          <dt className="text-xs text-slate-400">{label}</dt>
          <dd className="mt-1 text-xl font-bold text-grind-300 tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function GameFeatures() {
  const { prize } = useSite().weeklyChallenge;
  return (
    <div className="rounded-xl border border-slate-800 bg-slate-900 p-5">
      <h3 className="font-bold text-slate-100">Game Features</h3>
      <ul className="mt-3 space-y-2 text-sm text-slate-300">
        {features(prize).map((feature) => (
          <li key={feature} className="flex gap-2">
            <span className="text-grind-400" aria-hidden>
              ★
            </span>
            {feature}
          </li>
        ))}
      </ul>
    </div>
  );
}

export default withQueryClient(GameSection);
