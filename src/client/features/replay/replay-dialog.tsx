import { Dialog } from '#client/ui/dialog.tsx';
import { closeReplay } from '#client/lib/replay-address.ts';
import ReplayViewer, { useReplay } from './replay-viewer.tsx';
import { withQueryClient } from '#client/lib/query-client.tsx';

// Loaded only when the address asks for a replay (a dynamic import in the home page).

/** The replay viewer in a dialog; closing it clears the replay's address. */
function ReplayDialog({ entryId, open }: { entryId: number; open: boolean }) {
  const replay = useReplay(entryId);
  return (
    <Dialog
      open={open}
      onOpenChange={(open) => {
        if (!open) closeReplay();
      }}
      title={replay.data ? `Replay: ${replay.data.playerName}` : 'Replay'}
      description="Replayed by the game's own engine from the run's seed and jumps."
      wide
    >
      <ReplayViewer key={entryId} entryId={entryId} />
    </Dialog>
  );
}

export default withQueryClient(ReplayDialog);
