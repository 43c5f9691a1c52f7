// `npm run game:corpus`: the machine players of issue 21 against the run statistics and the
// pacing. Prints one row per player (medians over the seeds); docs/decisions/012 quotes it.
import { playCorpus, machinePlayers } from '#test-support/machine-players.ts';

const SEEDS = [11, 22, 33, 44, 55, 66, 77, 88];
const TARGET_STEPS = 60 * 90;

const rows = playCorpus(SEEDS, TARGET_STEPS);
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

console.log(
  `Machine players, ${SEEDS.length} seeds each, aiming at ${TARGET_STEPS / 60} s (medians over seeds)\n`,
);
console.log(
  '| player | steps | jump interval CV | aim spread px | edge margin min/median px | reaction median ms | fast reactions | top speed | set apart by statistics | pacing |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const player of machinePlayers) {
  const mine = rows.filter((r) => r.player === player.name);
  const pick = (f: (r: (typeof mine)[number]) => number) => med(mine.map(f));
  const flagged = mine.filter((r) => r.signs.length > 0).length;
  const signs = [...new Set(mine.flatMap((r) => r.signs))].join(', ') || 'none';
  const refused = mine.filter((r) => !r.pacing.ranked);
  const codes = [...new Set(refused.map((r) => r.pacing.refusal?.code ?? 'UNREPORTED_TAIL'))];
  console.log(
    `| ${player.name} | ${pick((r) => r.steps)} | ${pick((r) => r.stats.jumpIntervalCv)} | ` +
      `${pick((r) => r.stats.aimSpreadPx)} | ${pick((r) => r.stats.edgeMarginMinPx)} / ` +
      `${pick((r) => r.stats.edgeMarginMedianPx)} | ${pick((r) => r.stats.reactionMedianMs)} | ` +
      `${pick((r) => r.stats.fastReactionShare)} | ${pick((r) => r.stats.topSpeed)} | ` +
      `${flagged}/${mine.length} (${signs}) | ` +
      `${refused.length === 0 ? 'ranked' : `refused ${refused.length}/${mine.length} (${codes.join(', ')})`} |`,
  );
}
console.log('\nNo recorded human play exists here: there is no human row to compare with.');
