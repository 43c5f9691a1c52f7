import { CheckCircle2, ImageUp, Loader2 } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import { MEME_FORM_ERROR, MEME_IMAGE_MAX_BYTES, MEME_TITLE_MAX } from '#shared/api/memes.ts';
import { isMemeCategory, MEME_CATEGORIES } from '#shared/categories.ts';
import { ApiError, errorMessage } from '#client/lib/api-client.ts';
import { recheckSession } from '#client/lib/session.ts';
import { toast } from '#client/lib/toast-store.ts';
import { Button } from '#client/ui/button.tsx';
import { cn } from '#client/ui/cn.ts';
import { Input } from '#client/ui/input.tsx';
import { processUploadedImage, requestUploadURL, useCreateMeme } from './gallery-api.ts';
import { browserTransport, uploadFile } from './upload-file.ts';
import { appealActionFor } from '#client/lib/appeal-store.ts';

type ImageState =
  | { status: 'empty' }
  | { status: 'uploading'; progress: number }
  | { status: 'processing' }
  | { status: 'ready'; objectPath: string };

const ACCEPTED_TYPES = ['image/jpeg', 'image/png', 'image/gif'];
const ACCEPTED_EXTENSIONS = /\.(jpe?g|png|gif)$/i;

/** A first look in the browser, before any byte is sent; the server decides by the bytes. */
function fileProblem(file: File): string | null {
  if (!ACCEPTED_TYPES.includes(file.type) && !ACCEPTED_EXTENSIONS.test(file.name)) {
    return 'You can only upload JPG, PNG or GIF images.';
  }
  if (file.size > MEME_IMAGE_MAX_BYTES) return `${file.name} exceeds the maximum size of 5 MB.`;
  return null;
}

export function UploadForm() {
  const ids = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [image, setImage] = useState<ImageState>({ status: 'empty' });
  const [title, setTitle] = useState('');
  const [category, setCategory] = useState('');
  const [formError, setFormError] = useState<string | null>(null);
  const createMeme = useCreateMeme();

  /** A request to the server failed: a 401 is the session ending, anything else is told. */
  const serverRefused = (error: unknown, title: string, fallback?: string) => {
    if (!(error instanceof ApiError && error.status === 401)) {
      toast({
        title,
        description: errorMessage(error) ?? fallback,
        variant: 'destructive',
        action: appealActionFor(error),
      });
      return;
    }
    toast({
      title: 'Authentication Required',
      description: 'Please log in to upload images',
      variant: 'destructive',
    });
    // The session ended elsewhere; re-checking it swaps this form for "Login to Upload".
    void recheckSession();
  };
  const busy = image.status === 'uploading' || image.status === 'processing';

  const onFileChosen = async (file: File | undefined) => {
    if (!file) return;
    const previous = image;
    const problem = fileProblem(file);
    if (problem) {
      toast({ title: 'Upload Failed', description: problem, variant: 'destructive' });
      return;
    }
    setImage({ status: 'uploading', progress: 0 });

    let uploadURL: string;
    try {
      uploadURL = await requestUploadURL();
    } catch (error) {
      setImage(previous);
      serverRefused(error, 'Upload Error', 'Failed to initialize upload');
      return;
    }

    try {
      uploadURL = await uploadFile(
        uploadURL,
        file,
        browserTransport(requestUploadURL),
        (progress) => setImage({ status: 'uploading', progress }),
      );
    } catch (error) {
      setImage(previous);
      toast({
        title: 'Upload Failed',
        description: error instanceof Error && error.message ? error.message : 'Upload failed',
        variant: 'destructive',
      });
      return;
    }

    setImage({ status: 'processing' });
    try {
      const objectPath = await processUploadedImage(uploadURL);
      setImage({ status: 'ready', objectPath });
      setFormError(null);
      toast({
        title: 'Upload Complete',
        description: 'Image uploaded! Add a title and a category, then submit.',
      });
    } catch (error) {
      setImage(previous);
      serverRefused(error, 'Failed to process uploaded image');
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = title.trim();
    if (image.status !== 'ready' || !trimmed || !isMemeCategory(category)) {
      setFormError(MEME_FORM_ERROR);
      return;
    }
    setFormError(null);
    createMeme.mutate(
      { title: trimmed, category, imageUrl: image.objectPath },
      {
        onSuccess: () => {
          toast({ title: 'Success!', description: 'Your meme is in the gallery.' });
          setImage({ status: 'empty' });
          setTitle('');
          setCategory('');
        },
        onError: (error) =>
          toast({
            title: 'Upload Failed',
            description: errorMessage(error) ?? 'Upload failed',
            variant: 'destructive',
          }),
      },
    );
  };

  const pickerLabel =
    image.status === 'ready'
      ? 'Image uploaded! Click to change'
      : image.status === 'uploading'
        ? `Uploading... ${Math.round(image.progress * 100)}%`
        : image.status === 'processing'
          ? 'Processing image...'
          : 'Choose Image (JPG, PNG, GIF - max 5 MB)';

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-labelledby={`${ids}-heading`}
      className="rounded-2xl border border-slate-800 bg-slate-900 p-5 sm:p-6"
    >
      <h3 id={`${ids}-heading`} className="text-lg font-bold text-slate-100">
        Upload a meme
      </h3>
      <div className="mt-4 grid gap-5 md:grid-cols-[minmax(0,1fr)_minmax(0,1.2fr)]">
        <div>
          <input
            ref={fileInput}
            type="file"
            accept="image/jpeg,image/png,image/gif"
            className="sr-only"
            tabIndex={-1}
            aria-label="Meme image file"
            onChange={(event) => {
              const file = event.target.files?.[0];
              // Cleared so picking the same file again still counts as a change.
              event.target.value = '';
              void onFileChosen(file);
            }}
          />
          <button
            type="button"
            disabled={busy}
            onClick={() => fileInput.current?.click()}
            className={cn(
              'flex min-h-36 w-full flex-col items-center justify-center gap-2 rounded-xl border-2 border-dashed p-4 text-center text-sm font-semibold transition-colors',
              image.status === 'ready'
                ? 'border-emerald-500/60 bg-emerald-500/5 text-emerald-300'
                : 'border-slate-700 text-slate-300 hover:border-grind-500 hover:text-grind-300',
              busy && 'cursor-wait',
            )}
          >
            {image.status === 'ready' ? (
              <img
                src={image.objectPath}
                alt=""
                className="max-h-28 max-w-full rounded-md object-contain"
              />
            ) : busy ? (
              <Loader2 className="h-7 w-7 animate-spin" aria-hidden />
            ) : (
              <ImageUp className="h-7 w-7" aria-hidden />
            )}
            <span>{pickerLabel}</span>
          </button>
          {image.status === 'uploading' ? (
            <div
              role="progressbar"
              aria-label="Upload progress"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Math.round(image.progress * 100)}
              className="mt-2 h-2 overflow-hidden rounded-full bg-slate-800"
            >
              <div
                className="h-full bg-grind-500 transition-[width]"
                style={{ width: `${image.progress * 100}%` }}
              />
            </div>
          ) : null}
          {image.status === 'ready' ? (
            <p className="mt-2 flex items-center gap-1 text-sm font-medium text-emerald-400">
              <CheckCircle2 className="h-4 w-4" aria-hidden /> ✓ Image ready
            </p>
          ) : null}
        </div>

        <div className="space-y-4">
          <div>
            <label
              htmlFor={`${ids}-title`}
              className="mb-1 block text-sm font-medium text-slate-200"
            >
              Meme Title
            </label>
            <Input
              id={`${ids}-title`}
              value={title}
              maxLength={MEME_TITLE_MAX}
              placeholder="Give your meme a title"
              onChange={(event) => setTitle(event.target.value)}
            />
          </div>
          <div>
            <label
              htmlFor={`${ids}-category`}
              className="mb-1 block text-sm font-medium text-slate-200"
            >
              Category
            </label>
            <select
              id={`${ids}-category`}
              value={category}
              onChange={(event) => setCategory(event.target.value)}
              className="h-10 w-full rounded-lg border border-slate-700 bg-slate-900 px-3 text-sm text-slate-100 focus:border-grind-400 focus:outline-none"
            >
              <option value="" disabled>
                Select a category
              </option>
              {MEME_CATEGORIES.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          </div>
          {formError ? (
            <p role="alert" className="text-sm text-red-400">
              {formError}
            </p>
          ) : null}
          <Button
            type="submit"
            className="w-full"
            disabled={image.status !== 'ready' || createMeme.isPending}
          >
            {createMeme.isPending ? 'Submitting...' : 'Submit Meme'}
          </Button>
        </div>
      </div>
    </form>
  );
}
