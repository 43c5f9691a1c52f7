import { ArrowLeft } from 'lucide-react';
import { Link } from 'wouter';
import { categoryLabel } from '#shared/categories.ts';
import { ApiError } from '#client/lib/api-client.ts';
import { useDocumentTitle } from '#client/lib/document-title.ts';
import { useSession } from '#client/lib/session.ts';
import { buttonClasses } from '#client/ui/button.tsx';
import { WhenLoaded } from '#client/ui/when-loaded.tsx';
import { useMeme } from '#client/features/gallery/gallery-api.ts';
import { MemeActions } from '#client/features/gallery/meme-card.tsx';
import { useMemeActions } from '#client/features/gallery/use-meme-actions.ts';
import { NotFoundPage } from './not-found-page.tsx';
import { withQueryClient } from '#client/lib/query-client.tsx';

/** /memes/:id: one meme large, what a shared link opens (its card tags come from the server). */
function MemePage({ id }: { id: number }) {
  const { user } = useSession();
  const meme = useMeme(id, user?.id ?? null);
  const actions = useMemeActions();
  const title = meme.data?.title;
  useDocumentTitle(title ? `${title} - Daily Grind memes` : undefined);

  if (meme.error instanceof ApiError && meme.error.status === 404) return <NotFoundPage />;

  return (
    <div className="mx-auto max-w-4xl px-4 py-8 sm:py-12">
      <Link href="/#gallery" className={`${buttonClasses('ghost', 'sm')} -ml-3`}>
        <ArrowLeft className="h-4 w-4" aria-hidden /> Back to the gallery
      </Link>
      <WhenLoaded
        read={meme}
        failed="The meme could not be loaded."
        failedClassName="mt-10"
        placeholderClassName="mt-4 aspect-[4/3]"
        placeholderLabel="Loading meme"
      >
        {(data) => (
          <article className="mt-4 overflow-hidden rounded-2xl border border-slate-800 bg-slate-900">
            <div className="flex justify-center bg-slate-950">
              <img
                src={data.imageUrl}
                alt={data.title}
                className="max-h-[70vh] w-auto max-w-full object-contain"
              />
            </div>
            <div className="flex flex-col gap-4 p-5 sm:p-6">
              <div className="min-w-0">
                <h1 className="text-2xl font-extrabold break-words text-slate-100 sm:text-3xl">
                  {data.title}
                </h1>
                <p className="mt-2 flex flex-wrap items-center gap-2 text-sm text-slate-400">
                  <span className="rounded-full bg-grind-500/15 px-2 py-0.5 text-xs font-medium text-grind-300">
                    {categoryLabel(data.category)}
                  </span>
                  <span>
                    Posted{' '}
                    <time dateTime={data.createdAt}>
                      {new Date(data.createdAt).toLocaleDateString(undefined, {
                        dateStyle: 'medium',
                      })}
                    </time>
                  </span>
                </p>
              </div>
              <MemeActions {...actions.propsFor(data)} />
            </div>
          </article>
        )}
      </WhenLoaded>
      <p className="mt-8 text-center">
        <Link href="/#gallery" className={buttonClasses('secondary', 'md')}>
          See more memes
        </Link>
      </p>
    </div>
  );
}

export default withQueryClient(MemePage);
