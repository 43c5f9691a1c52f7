import { LogIn } from 'lucide-react';
import { useState } from 'react';
import { MEME_SORT_LABELS, MEME_SORTS, type MemeSort } from '#shared/api/memes.ts';
import { CATEGORY_FILTERS, type CategoryFilter } from '#shared/categories.ts';
import { openAuthDialog } from '#client/lib/auth-dialog-store.ts';
import { useSession } from '#client/lib/session.ts';
import { Button } from '#client/ui/button.tsx';
import { FeatureHeading, PageSection } from '#client/ui/page-section.tsx';
import { ChoiceButtons } from './choice-buttons.tsx';
import { MemeGrid } from './meme-grid.tsx';
import { UploadForm } from './upload-form.tsx';
import { withQueryClient } from '#client/lib/query-client.tsx';

const SORT_OPTIONS = MEME_SORTS.map((sort) => ({ value: sort, label: MEME_SORT_LABELS[sort] }));

/** The community meme gallery (tests/e2e/gallery.spec.ts): upload, filter, browse, vote and share. */
function GallerySection() {
  const { user, isLoading } = useSession();
  const [category, setCategory] = useState<CategoryFilter>('all');
  const [sort, setSort] = useState<MemeSort>('new');

  return (
    <PageSection id="gallery" className="bg-slate-950 py-16 sm:py-20">
      <FeatureHeading sectionId="gallery" title="Community Meme Gallery">
        Share the daily grind: post your best work memes and vote for the ones that hit home.
      </FeatureHeading>

      <div className="mx-auto mt-10 max-w-4xl">
        {isLoading ? null : user ? (
          <UploadForm />
        ) : (
          <div className="flex flex-col items-center gap-4 rounded-2xl border border-slate-800 bg-slate-900 p-6 text-center sm:flex-row sm:justify-between sm:text-left">
            <p className="text-slate-300">Members can upload their own memes to the gallery.</p>
            <Button onClick={() => openAuthDialog('login')}>
              <LogIn className="h-4 w-4" aria-hidden /> Login to Upload
            </Button>
          </div>
        )}
      </div>

      <div className="mt-10 space-y-4">
        <ChoiceButtons
          label="Sort memes"
          options={SORT_OPTIONS}
          value={sort}
          onChange={setSort}
          look="segmented"
        />
        <ChoiceButtons
          label="Filter memes by category"
          options={CATEGORY_FILTERS}
          value={category}
          onChange={setCategory}
          look="pills"
        />
      </div>
      <div className="mt-8">
        <MemeGrid category={category} sort={sort} viewer={user?.id ?? null} />
      </div>
    </PageSection>
  );
}

export default withQueryClient(GallerySection);
