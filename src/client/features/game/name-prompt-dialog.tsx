import { useId, useState, type FormEvent } from 'react';
import { PLAYER_NAME_MAX } from '#shared/api/game.ts';
import { Button } from '#client/ui/button.tsx';
import { Dialog } from '#client/ui/dialog.tsx';
import { Input } from '#client/ui/input.tsx';
import { NAME_PROMPT } from './end-of-round.ts';

/** The spec's name prompt as an in-page dialog: answers a name, or null when skipped. */
export function NamePromptDialog({
  open,
  score,
  onAnswer,
}: {
  open: boolean;
  score: number;
  onAnswer: (name: string | null) => void;
}) {
  const inputId = useId();
  const [name, setName] = useState('');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    onAnswer(trimmed === '' ? null : trimmed);
    setName('');
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) {
          onAnswer(null);
          setName('');
        }
      }}
      title="Save your score"
      description={`You scored ${score}. Your name is kept in this browser for next time.`}
    >
      <form onSubmit={submit} className="space-y-4">
        <div className="space-y-2">
          <label htmlFor={inputId} className="block text-sm font-medium text-slate-200">
            {NAME_PROMPT}
          </label>
          <Input
            id={inputId}
            value={name}
            maxLength={PLAYER_NAME_MAX}
            autoComplete="nickname"
            autoFocus
            onChange={(event) => setName(event.target.value)}
          />
        </div>
        <div className="flex justify-end gap-2">
          <Button
            variant="ghost"
            onClick={() => {
              onAnswer(null);
              setName('');
            }}
          >
            Skip
          </Button>
          <Button type="submit" disabled={name.trim() === ''}>
            Submit Score
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
