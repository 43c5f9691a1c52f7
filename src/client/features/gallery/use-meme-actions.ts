import type { Meme, VoteType } from '#shared/api/memes.ts';
import { errorMessage } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast-store.ts';
import { useVote } from './gallery-api.ts';
import { shareMeme } from './share-meme.ts';
import { appealActionFor } from '#client/lib/appeal-store.ts';

/** Voting and sharing with their toasts, for the gallery's cards and a meme's own page. */
export function useMemeActions() {
  const vote = useVote();

  const onVote = (meme: Meme, voteType: VoteType) =>
    vote.mutate(
      { memeId: meme.id, voteType },
      {
        onError: (error) =>
          toast({
            title: 'Failed to vote on meme',
            description: errorMessage(error),
            variant: 'destructive',
            action: appealActionFor(error),
          }),
      },
    );

  const onShare = async (meme: Meme) => {
    const result = await shareMeme(meme);
    if (result === 'copied') toast({ title: 'Link copied to clipboard!' });
    if (result === 'failed')
      toast({
        title: 'Failed to copy',
        description: 'Please copy manually',
        variant: 'destructive',
      });
  };

  return {
    /** Props for MemeActions / MemeCard. */
    propsFor: (meme: Meme) => ({
      meme,
      voting: vote.isPending && vote.variables?.memeId === meme.id,
      onVote: (voteType: VoteType) => onVote(meme, voteType),
      onShare: () => void onShare(meme),
    }),
  };
}
