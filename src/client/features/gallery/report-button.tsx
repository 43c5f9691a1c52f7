import { Flag } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { REPORT_REASON_LABELS, REPORT_REASONS, type ReportReason } from '#shared/api/memes.ts';
import { errorMessage } from '#client/lib/api-client.ts';
import { toast } from '#client/lib/toast-store.ts';
import { Button } from '#client/ui/button.tsx';
import { Dialog } from '#client/ui/dialog.tsx';
import { cn } from '#client/ui/cn.ts';
import { useReport } from './gallery-api.ts';
import { appealActionFor } from '#client/lib/appeal-store.ts';

/** The flag on a meme: a reason from the short list, one report per member or visitor. */
export function ReportButton({
  memeId,
  title,
  className,
}: {
  memeId: number;
  title: string;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState<ReportReason | null>(null);
  const report = useReport();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!reason) return;
    report.mutate(
      { memeId, reason },
      {
        onSuccess: ({ message }) => {
          setOpen(false);
          setReason(null);
          toast({ title: 'Report sent', description: message });
        },
        onError: (error) =>
          toast({
            title: 'Failed to report meme',
            description: errorMessage(error),
            variant: 'destructive',
            action: appealActionFor(error),
          }),
      },
    );
  };

  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-label="Report"
        title="Report this meme"
        className={cn(
          'inline-flex h-9 w-9 items-center justify-center rounded-lg border border-slate-700 text-slate-400 hover:bg-slate-800 hover:text-rose-300',
          className,
        )}
      >
        <Flag className="h-4 w-4" aria-hidden />
      </button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        title="Report this meme"
        description={`What is wrong with "${title}"? Moderators review every report.`}
      >
        <form onSubmit={submit} className="space-y-4">
          <fieldset className="space-y-2">
            <legend className="sr-only">Reason</legend>
            {REPORT_REASONS.map((value) => (
              <label
                key={value}
                className="flex cursor-pointer items-center gap-3 rounded-lg border border-slate-700 px-3 py-2 text-slate-200 has-[:checked]:border-grind-500 has-[:checked]:bg-grind-500/10"
              >
                <input
                  type="radio"
                  name="reason"
                  value={value}
                  checked={reason === value}
                  onChange={() => setReason(value)}
                  className="accent-grind-500"
                />
                {REPORT_REASON_LABELS[value]}
              </label>
            ))}
          </fieldset>
          <Button type="submit" className="w-full" disabled={!reason || report.isPending}>
            {report.isPending ? 'Sending...' : 'Send report'}
          </Button>
        </form>
      </Dialog>
    </>
  );
}
