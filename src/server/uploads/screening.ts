import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import { NOT_SCORED } from '../memes/screen-score.ts';

/**
 * Images screened on upload (issue 43, docs/decisions/027-raid-day.md): an NSFW classifier that
 * ships in its package (nsfwjs' MobileNetV2 on TensorFlow.js' WASM backend) in a worker thread
 * (screen-worker.mjs), one per process, started on first use and shared by every app in it. Its
 * score is the probability of the three unsafe classes together (Porn, Hentai, Sexy); at or above
 * SCREEN_HOLD_THRESHOLD the meme is held for a moderator's review, never dropped.
 */
const SCREEN_SIZE = 224;
/** How long one image may wait for its score; past it the image counts as not scored (held). */
const SCREEN_TIMEOUT_MS = 15_000;

export type ClassScores = Record<string, number>;

/** The unsafe share of the five classes (Drawing, Hentai, Neutral, Porn, Sexy): 0 to 1. */
export function unsafeScore(scores: ClassScores): number {
  const sum = (scores.Porn ?? 0) + (scores.Hentai ?? 0) + (scores.Sexy ?? 0);
  return Math.min(1, Math.max(0, sum));
}

/** The first frame as the classifier takes it: 224x224 RGB, transparency on white. */
async function screenPixels(image: Buffer): Promise<Uint8Array> {
  const pixels = await sharp(image, { pages: 1, limitInputPixels: 40_000_000 })
    .flatten({ background: '#ffffff' })
    .removeAlpha()
    .resize(SCREEN_SIZE, SCREEN_SIZE, { fit: 'fill' })
    .raw()
    .toBuffer();
  return new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.byteLength);
}

interface Pending {
  resolve(scores: ClassScores): void;
  reject(error: Error): void;
}

/** The classifier thread, its model loaded once; calls queue up in its one thread. */
class ClassifierThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  readonly ready: Promise<void>;

  constructor() {
    // Its console (the libraries' notices) is kept off the server's: stdout and stderr are ours.
    this.worker = new Worker(new URL('./screen-worker.mjs', import.meta.url), {
      stdout: true,
      stderr: true,
    });
    this.worker.stdout.resume();
    this.worker.stderr.resume();
    // A server that has nothing else to do may exit with the thread idle.
    this.worker.unref();
    this.ready = new Promise((resolve, reject) => {
      this.worker.once('error', reject);
      this.worker.once('message', () => resolve());
    });
    this.worker.on('message', (message: { id?: number; scores?: ClassScores; error?: string }) => {
      if (message.id === undefined) return;
      const waiting = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.scores) waiting?.resolve(message.scores);
      else waiting?.reject(new Error(message.error ?? 'classifier failed'));
    });
    this.worker.on('error', (error) => this.failAll(error));
    this.worker.on('exit', () => this.failAll(new Error('classifier thread ended')));
  }

  private failAll(error: Error): void {
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
    if (thread === this) thread = null;
  }

  async classify(pixels: Uint8Array): Promise<ClassScores> {
    await this.ready;
    const id = this.nextId++;
    return new Promise<ClassScores>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, pixels });
    });
  }
}

let thread: ClassifierThread | null = null;

/** Starts the classifier now (the server's start), so the first upload does not wait for it. */
export function warmClassifier(): Promise<void> {
  thread ??= new ClassifierThread();
  return thread.ready;
}

/** The five classes' probabilities for an image's first frame. */
export async function classify(image: Buffer): Promise<ClassScores> {
  const pixels = await screenPixels(image);
  thread ??= new ClassifierThread();
  return thread.classify(pixels);
}

/**
 * The image's unsafe score, or NOT_SCORED when the classifier failed or took longer than
 * `timeoutMs` (the upload's budget): such an image is held for review rather than let through.
 */
export async function screenImage(image: Buffer, timeoutMs = SCREEN_TIMEOUT_MS): Promise<number> {
  try {
    // The model's load (a few seconds, once) is not the image's time.
    await within(warmClassifier(), MODEL_LOAD_TIMEOUT_MS);
    return unsafeScore(await within(classify(image), timeoutMs));
  } catch {
    return NOT_SCORED;
  }
}

/** How long the model may take to load in its thread (about 4 s on a busy 2-core machine). */
const MODEL_LOAD_TIMEOUT_MS = 60_000;

async function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('classifier too slow')), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
