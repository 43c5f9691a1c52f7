import { createStore, useStore } from '#client/lib/store.ts';

/**
 * The passkey step-up asked for in place (decision 022): when any console call is refused
 * `PASSKEY_REQUIRED` (the 15 idle minutes, or the 12 hours, ran out with the console open), the
 * call waits here while the page stays as it was and the passkey prompt opens over it; once the
 * operator has signed in with their passkey, every waiting call is made again and finishes what
 * asked for it (a list loads, a decision is recorded). Several calls refused at once share one
 * prompt.
 */
interface StepUpState {
  /** The prompt is open: calls are waiting for a passkey sign-in. */
  asking: boolean;
}

const state = createStore<StepUpState>({ asking: false });
let waiting: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];

class StepUpCancelled extends Error {
  constructor() {
    super('The passkey sign-in was not made, so this was not done.');
    this.name = 'StepUpCancelled';
  }
}

/** Resolves once the operator has signed in with their passkey again; rejects if they decline. */
export function waitForStepUp(): Promise<void> {
  return new Promise((resolve, reject) => {
    waiting.push({ resolve, reject });
    state.set({ asking: true });
  });
}

function settle(outcome: (w: (typeof waiting)[number]) => void) {
  const settled = waiting;
  waiting = [];
  state.set({ asking: false });
  for (const w of settled) outcome(w);
}

/** The passkey sign-in succeeded: the waiting calls go again. */
export function stepUpDone(): void {
  settle((w) => w.resolve());
}

/** The operator closed the prompt: the waiting calls fail with a message that says why. */
export function stepUpDeclined(): void {
  settle((w) => w.reject(new StepUpCancelled()));
}

export function useStepUp(): StepUpState {
  return useStore(state);
}
