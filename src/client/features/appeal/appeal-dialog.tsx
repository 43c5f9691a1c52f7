import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import {
  APPEAL_TEXT_MAX,
  appealBodySchema,
  appealEndpoint,
  appealStatusEndpoint,
} from '#shared/api/appeals.ts';
import type { EndpointResponse } from '#shared/api/endpoint.ts';
import { callEndpoint } from '#client/lib/api-call.ts';
import { ApiError, errorMessage } from '#client/lib/api-client.ts';
import { closeAppealDialog, useAppeal } from '#client/lib/appeal-store.ts';
import { withQueryClient } from '#client/lib/query-client.tsx';
import { toast } from '#client/lib/toast-store.ts';
import { Button } from '#client/ui/button.tsx';
import { Dialog } from '#client/ui/dialog.tsx';
import { FieldError } from '#client/ui/field-error.tsx';

type AppealStatus = EndpointResponse<typeof appealStatusEndpoint>;

/** A time as the site writes it for members: UTC, to the minute. */
const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/** The member's current suspension and their appeal of it (one appeal per suspension). */
const statusKey = ['appeal-status'] as const;

/** The appeal form a suspension's refusal toast opens: one short text, sent once. */
function AppealDialog() {
  const { open, refusal } = useAppeal();
  const queryClient = useQueryClient();
  // Asked at each opening (the appeal may have been filed in another tab, or before a reload);
  // if the question fails, the form is shown, and the server still refuses a second appeal.
  const status = useQuery({
    queryKey: statusKey,
    queryFn: () => callEndpoint(appealStatusEndpoint),
    enabled: open,
    staleTime: 0,
  });
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const [sending, setSending] = useState(false);
  const filed = (appeal: AppealStatus['appeal']) =>
    queryClient.setQueryData<AppealStatus>(statusKey, (before) => ({
      suspension: before?.suspension ?? null,
      appeal,
    }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = appealBodySchema.safeParse({ text });
    if (!checked.success) {
      setProblem(checked.error.issues[0]?.message);
      return;
    }
    setSending(true);
    try {
      const { appeal } = await callEndpoint(appealEndpoint, { body: checked.data });
      closeAppealDialog();
      setText('');
      setProblem(undefined);
      filed(appeal);
      toast({
        title: 'Appeal sent',
        description: 'A moderator will read it; you will be told the decision when you next visit.',
      });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'APPEAL_EXISTS') {
        // Filed meanwhile (another tab, another device): no second form.
        void queryClient.invalidateQueries({ queryKey: statusKey });
        return;
      }
      setProblem(errorMessage(error) ?? 'The appeal could not be sent. Please try again.');
    } finally {
      setSending(false);
    }
  };

  const appealed = status.data?.appeal ?? null;
  const notSuspended = status.data !== undefined && status.data.suspension === null && !appealed;
  const showForm = !status.isPending && !appealed && !notSuspended;
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) closeAppealDialog();
      }}
      title="Appeal your suspension"
      description={refusal || undefined}
    >
      {status.isPending && <p className="text-sm text-slate-400">Checking your appeal…</p>}
      {appealed && (
        <div className="space-y-3 text-sm text-slate-300" data-testid="appeal-filed">
          <p>
            You appealed this suspension on {utc(appealed.createdAt)}. A moderator will decide on
            it; you will be told the decision when you next visit. Each suspension can be appealed
            once.
          </p>
          <Button className="w-full" variant="secondary" onClick={closeAppealDialog}>
            Close
          </Button>
        </div>
      )}
      {notSuspended && (
        <p className="text-sm text-slate-300">
          Your account is not suspended now: nothing to appeal.
        </p>
      )}
      {showForm && (
        <form onSubmit={(e) => void submit(e)} className="space-y-3" noValidate>
          <label htmlFor="appeal-text" className="block text-sm text-slate-300">
            Why should it be lifted? You can appeal once.
          </label>
          <textarea
            id="appeal-text"
            value={text}
            onChange={(e) => setText(e.target.value)}
            maxLength={APPEAL_TEXT_MAX}
            rows={5}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? 'appeal-problem' : undefined}
            className="w-full rounded-lg border border-slate-700 bg-slate-900 p-3 text-sm text-slate-100 placeholder:text-slate-500 focus:border-grind-400 focus:outline-none aria-[invalid=true]:border-red-500"
          />
          <div className="flex items-start justify-between gap-3">
            <FieldError id="appeal-problem" message={problem} />
            <span className="ml-auto shrink-0 text-xs text-slate-500">
              {text.trim().length}/{APPEAL_TEXT_MAX}
            </span>
          </div>
          <Button type="submit" disabled={sending} className="w-full">
            {sending ? 'Sending…' : 'Send appeal'}
          </Button>
        </form>
      )}
    </Dialog>
  );
}

export default withQueryClient(AppealDialog);
