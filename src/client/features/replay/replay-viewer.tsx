import { useQuery } from '@tanstack/react-query';
import { Pause, Play, SkipBack, SkipForward } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { replayEndpoint, type ReplayResponse } from '#shared/api/game.ts';
import { DEFAULT_CHARACTER_KEY, isCharacterKey } from '#shared/characters.ts';
import { STEPS_PER_SECOND } from '#shared/game/constants.ts';
import { callEndpoint } from '#client/lib/api-call.ts';
import { Button } from '#client/ui/button.tsx';
import { GameRenderer } from '#client/lib/game-renderer.ts';
import { REPLAY_SPEEDS, type ReplaySpeed } from '#shared/game/constants.ts';
import { ReplayPlayback } from './replay-playback.ts';

// Loaded only when a replay's address is opened (replay-dialog.tsx, a dynamic import).

function fetchReplay(entryId: number): Promise<ReplayResponse> {
  return callEndpoint(replayEndpoint, { params: { entryId } });
}

/** A leaderboard entry's public replay (seed, jumps, character, figures). */
export function useReplay(entryId: number) {
  return useQuery({
    queryKey: ['replay', entryId],
    queryFn: () => fetchReplay(entryId),
    staleTime: Infinity,
  });
}

/**
 * The public replay of a leaderboard entry: the run, its controls, and its figures.
 * `onWatched`: called when playback reaches the end without a skip forward (any speed); the
 * console's Prize week needs it before an approval.
 */
export default function ReplayViewer({
  entryId,
  onWatched,
}: {
  entryId: number;
  onWatched?: () => void;
}) {
  const replay = useReplay(entryId);
  if (replay.isPending) {
    return <div className="aspect-[7/4] w-full animate-pulse rounded-lg bg-slate-800/60" />;
  }
  if (replay.isError) {
    return (
      <p className="py-6 text-center text-sm text-slate-400" role="alert">
        This replay could not be loaded.
      </p>
    );
  }
  return <ReplayPlayer replay={replay.data} onWatched={onWatched} />;
}

interface Shown {
  step: number;
  score: number;
  playing: boolean;
}

function ReplayPlayer({
  replay,
  onWatched,
}: {
  replay: ReplayResponse;
  onWatched?: (() => void) | undefined;
}) {
  // A skip forward (the seek bar) means the run was not watched to its end; a restart clears it.
  const skippedRef = useRef(false);
  const onWatchedRef = useRef(onWatched);
  useEffect(() => {
    onWatchedRef.current = onWatched;
  }, [onWatched]);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [playback] = useState(() => new ReplayPlayback(replay.seed, replay.inputs, replay.steps));
  const rendererRef = useRef<GameRenderer | null>(null);
  const [speed, setSpeed] = useState<ReplaySpeed>(1);
  const [shown, setShown] = useState<Shown>({ step: 0, score: 0, playing: true });
  const playingRef = useRef(true);
  const speedRef = useRef<ReplaySpeed>(1);
  const character = isCharacterKey(replay.character) ? replay.character : DEFAULT_CHARACTER_KEY;

  const draw = useCallback(
    (timeMs: number) => {
      rendererRef.current?.draw({
        state: playback.state,
        alpha: playback.alpha,
        character,
        timeMs,
      });
    },
    [playback, character],
  );

  const show = useCallback(() => {
    setShown((prev) =>
      prev.step === playback.step &&
      prev.score === playback.state.score &&
      prev.playing === playingRef.current
        ? prev
        : { step: playback.step, score: playback.state.score, playing: playingRef.current },
    );
  }, [playback]);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return undefined;
    const renderer = new GameRenderer(canvas);
    rendererRef.current = renderer;
    const observer = new ResizeObserver(() => {
      if (renderer.resize()) draw(performance.now());
    });
    observer.observe(canvas);
    let last: number | null = null;
    let handle = 0;
    const frame = (now: number) => {
      if (playingRef.current) {
        // Hidden time (another tab) is not played: the next frame measures from itself.
        playback.advance(last === null ? 0 : Math.min(250, now - last), speedRef.current);
        if (playback.ended) {
          playingRef.current = false;
          if (!skippedRef.current) onWatchedRef.current?.();
        }
      }
      last = now;
      draw(now);
      show();
      handle = requestAnimationFrame(frame);
    };
    handle = requestAnimationFrame(frame);
    const onVisibility = () => {
      last = null;
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      cancelAnimationFrame(handle);
      observer.disconnect();
      document.removeEventListener('visibilitychange', onVisibility);
      rendererRef.current = null;
    };
  }, [playback, draw, show]);

  const setPlaying = (playing: boolean) => {
    if (playing && playback.ended) {
      playback.seek(0);
      skippedRef.current = false;
    }
    playingRef.current = playing;
    show();
  };
  const seek = (step: number) => {
    if (step > playback.step + 1) skippedRef.current = true;
    if (step === 0) skippedRef.current = false;
    playback.seek(step);
    draw(performance.now());
    show();
  };
  const stepBy = (delta: number) => {
    playingRef.current = false;
    seek(playback.step + delta);
  };

  const seconds = (steps: number) => (steps / STEPS_PER_SECOND).toFixed(1);
  const stats = replay.statistics;

  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_15rem]">
      <div className="space-y-3">
        {replay.disqualified && (
          <p
            role="status"
            className="rounded-lg border border-amber-700 bg-amber-950/40 p-2 text-sm"
          >
            Disqualified from the weekly board: {replay.disqualified}
          </p>
        )}
        <canvas
          ref={canvasRef}
          width={700}
          height={400}
          className="block aspect-[7/4] w-full rounded-lg border border-slate-700"
          role="img"
          aria-label={`Replay of ${replay.playerName}'s run, scoring ${replay.score}`}
        />
        <div className="flex flex-wrap items-center gap-2">
          <Button
            size="icon"
            variant="secondary"
            aria-label={shown.playing ? 'Pause' : 'Play'}
            onClick={() => setPlaying(!shown.playing)}
          >
            {shown.playing ? (
              <Pause className="h-5 w-5" aria-hidden />
            ) : (
              <Play className="h-5 w-5" aria-hidden />
            )}
          </Button>
          <Button
            size="icon"
            variant="ghost"
            aria-label="Previous frame"
            onClick={() => stepBy(-1)}
          >
            <SkipBack className="h-5 w-5" aria-hidden />
          </Button>
          <Button size="icon" variant="ghost" aria-label="Next frame" onClick={() => stepBy(1)}>
            <SkipForward className="h-5 w-5" aria-hidden />
          </Button>
          <label className="flex items-center gap-1 text-sm text-slate-300">
            Speed
            <select
              className="rounded-md border border-slate-700 bg-slate-800 px-2 py-1 text-slate-100"
              value={speed}
              onChange={(event) => {
                const next = Number(event.target.value) as ReplaySpeed;
                speedRef.current = next;
                setSpeed(next);
              }}
            >
              {REPLAY_SPEEDS.map((s) => (
                <option key={s} value={s}>
                  {s}x
                </option>
              ))}
            </select>
          </label>
          <span className="ml-auto text-sm text-slate-300 tabular-nums">
            Score <span data-testid="replay-score">{shown.score}</span> ·{' '}
            <span data-testid="replay-time">
              {seconds(shown.step)} / {seconds(replay.steps)} s
            </span>
          </span>
        </div>
        <input
          type="range"
          aria-label="Seek"
          className="w-full accent-grind-400"
          min={0}
          max={replay.steps}
          value={shown.step}
          onChange={(event) => {
            playingRef.current = false;
            seek(Number(event.target.value));
          }}
        />
        <JumpTimeline inputs={replay.inputs} steps={replay.steps} at={shown.step} onSeek={seek} />
      </div>
      <aside className="space-y-2 text-sm">
        <p className="font-semibold text-slate-100">
          {replay.playerName} · {replay.score} points
        </p>
        <p className="text-slate-400">
          {replay.inputs.length} jumps, {replay.coins} coins, {replay.obstaclesPassed} obstacles,{' '}
          {seconds(replay.steps)} s
        </p>
        {stats ? (
          <dl
            className="grid grid-cols-[1fr_auto] gap-x-3 gap-y-1 text-slate-300"
            data-testid="replay-statistics"
          >
            <dt>Jump interval (median)</dt>
            <dd className="tabular-nums">{stats.jumpIntervalMedianMs} ms</dd>
            <dt>Jump interval spread (CV)</dt>
            <dd className="tabular-nums">{stats.jumpIntervalCv}</dd>
            <dt>Jump height spread</dt>
            <dd className="tabular-nums">{stats.aimSpreadPx} px</dd>
            <dt>Closest to an edge</dt>
            <dd className="tabular-nums">{stats.edgeMarginMinPx} px</dd>
            <dt>Edge margin (median)</dt>
            <dd className="tabular-nums">{stats.edgeMarginMedianPx} px</dd>
            <dt>Reaction to a new gap</dt>
            <dd className="tabular-nums">{stats.reactionMedianMs} ms</dd>
            <dt>Top speed</dt>
            <dd className="tabular-nums">{stats.topSpeed}</dd>
          </dl>
        ) : null}
        {replay.signs.length > 0 ? (
          <ul className="space-y-1 text-amber-300" data-testid="replay-signs">
            {replay.signs.map((sign) => (
              <li key={sign.key}>⚠ {sign.label}</li>
            ))}
          </ul>
        ) : null}
        <p className="text-xs text-slate-500">
          These figures point a reviewer at machine-like play; they never decide a run. The prize is
          paid only after a person has watched it.
        </p>
      </aside>
    </div>
  );
}

/** Every jump as a tick along the run; a click seeks there. */
function JumpTimeline({
  inputs,
  steps,
  at,
  onSeek,
}: {
  inputs: readonly number[];
  steps: number;
  at: number;
  onSeek: (step: number) => void;
}) {
  const pct = (step: number) => `${(100 * step) / Math.max(1, steps)}%`;
  return (
    <div
      className="relative h-6 w-full cursor-pointer rounded bg-slate-800"
      data-testid="replay-timeline"
      aria-label={`Timeline of ${inputs.length} jumps`}
      role="group"
      onClick={(event) => {
        const box = event.currentTarget.getBoundingClientRect();
        onSeek(Math.round(((event.clientX - box.left) / box.width) * steps));
      }}
    >
      {inputs.map((jump) => (
        <span
          key={jump}
          className="absolute top-1 bottom-1 w-px bg-grind-400/70"
          style={{ left: pct(jump) }}
        />
      ))}
      <span
        className="absolute top-0 bottom-0 w-0.5 bg-white"
        style={{ left: pct(at) }}
        aria-hidden
      />
    </div>
  );
}
