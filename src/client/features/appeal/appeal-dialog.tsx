import { useState, type FormEvent } from 'react';
import { APPEAL_TEXT_MAX, appealBodySchema, appealEndpoint } from '#shared/api/appeals.ts';
import { callEndpoint } from '#client/lib/api-call.ts';
import { errorMessage } from '#client/lib/api-client.ts';
import { closeAppealDialog, useAppeal } from '#client/lib/appeal-store.ts';
import { toast } from '#client/lib/toast-store.ts';
import { Button } from '#client/ui/button.tsx';
import { Dialog } from '#client/ui/dialog.tsx';
import { FieldError } from '#client/ui/field-error.tsx';

/** The appeal form a suspension's refusal toast opens: one short text, sent once. */
export default function AppealDialog() {
  const { open, refusal } = useAppeal();
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const [sending, setSending] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = appealBodySchema.safeParse({ text });
    if (!checked.success) {
      setProblem(checked.error.issues[0]?.message);
      return;
    }
    setSending(true);
    try {
      await callEndpoint(appealEndpoint, { body: checked.data });
      closeAppealDialog();
      setText('');
      setProblem(undefined);
      toast({
        title: 'Appeal sent',
        description: 'A moderator will read it; you will be told the decision when you next visit.',
      });
    } catch (error) {
      setProblem(errorMessage(error) ?? 'The appeal could not be sent. Please try again.');
    } finally {
      setSending(false);
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) closeAppealDialog();
      }}
      title="Appeal your suspension"
      description={refusal || undefined}
    >
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
    </Dialog>
  );
}
