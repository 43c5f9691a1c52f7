/**
 * Image processing's waiting line, fair between members: a small number of jobs run at once
 * (each decode may take a couple of hundred MB and seconds of a core), no member runs more than
 * one of them, and a member may hold only a few places at all. A member's second job waits
 * while anyone else's first runs, so one member's slow files (a noise GIF takes ~10 s) never
 * stand between another member and their 10 KB PNG. When the line is full the caller learns it
 * at once (QueueFullError), before anything is consumed, instead of waiting without end.
 */
export interface FairQueueOptions {
  /** Jobs running at once on this node. */
  concurrency: number;
  /** Places (running + waiting) one member may hold. */
  perMember: number;
  /** Places (running + waiting) on this node in all. */
  total: number;
  /** What a refusal tells the client to wait before trying again. */
  retryAfterSeconds: number;
}

export class QueueFullError extends Error {
  constructor(
    /** 'member': this member holds all their places; 'node': the whole line is full. */
    readonly scope: 'member' | 'node',
    readonly retryAfterSeconds: number,
  ) {
    super(scope === 'member' ? 'member queue full' : 'image queue full');
    this.name = 'QueueFullError';
  }
}

/** A place in the line: run one job in it, or give it back unused. */
export interface QueuePlace {
  run<T>(job: () => Promise<T>): Promise<T>;
  cancel(): void;
}

interface Waiter {
  member: string;
  start(): void;
}

export class FairQueue {
  private running = 0;
  private held = 0;
  private readonly runningOf = new Map<string, number>();
  private readonly heldOf = new Map<string, number>();
  /** In arrival order; the first whose member runs nothing yet goes next. */
  private readonly waiting: Waiter[] = [];

  constructor(private readonly options: FairQueueOptions) {}

  /** Places held (running plus waiting). */
  get pending(): number {
    return this.held;
  }

  /** Jobs running now. */
  get active(): number {
    return this.running;
  }

  /** Takes a place for `member`, or throws QueueFullError when they or the node have none left. */
  enter(member: string): QueuePlace {
    const { perMember, total, retryAfterSeconds } = this.options;
    const mine = this.heldOf.get(member) ?? 0;
    if (mine >= perMember) throw new QueueFullError('member', retryAfterSeconds);
    if (this.held >= total) throw new QueueFullError('node', retryAfterSeconds);
    this.held++;
    this.heldOf.set(member, mine + 1);
    let used = false;
    const release = () => {
      this.held--;
      const left = (this.heldOf.get(member) ?? 1) - 1;
      if (left === 0) this.heldOf.delete(member);
      else this.heldOf.set(member, left);
    };
    return {
      run: async <T>(job: () => Promise<T>): Promise<T> => {
        if (used) throw new Error('a queue place runs one job');
        used = true;
        await this.slot(member);
        try {
          return await job();
        } finally {
          this.finish(member);
          release();
        }
      },
      cancel: () => {
        if (used) return;
        used = true;
        release();
      },
    };
  }

  private canStart(member: string): boolean {
    return this.running < this.options.concurrency && (this.runningOf.get(member) ?? 0) === 0;
  }

  private begin(member: string): void {
    this.running++;
    this.runningOf.set(member, (this.runningOf.get(member) ?? 0) + 1);
  }

  private slot(member: string): Promise<void> {
    if (
      this.canStart(member) &&
      !this.waiting.some((w) => w.member !== member && this.canStart(w.member))
    ) {
      this.begin(member);
      return Promise.resolve();
    }
    return new Promise<void>((start) => this.waiting.push({ member, start }));
  }

  private finish(member: string): void {
    this.running--;
    const left = (this.runningOf.get(member) ?? 1) - 1;
    if (left === 0) this.runningOf.delete(member);
    else this.runningOf.set(member, left);
    // Hand free slots to the earliest waiters whose member runs nothing yet.
    for (let i = 0; i < this.waiting.length && this.running < this.options.concurrency;) {
      const next = this.waiting[i]!;
      if (this.canStart(next.member)) {
        this.waiting.splice(i, 1);
        this.begin(next.member);
        next.start();
      } else i++;
    }
  }
}
