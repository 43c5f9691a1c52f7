import { ExternalLink, Link2, Share2 } from 'lucide-react';
import { siteTitle, socialCardLinks, socialLinksText } from '#shared/site.ts';
import { useSite } from '#client/lib/site-config.ts';
import { toast } from '#client/lib/toast-store.ts';
import { Button } from '#client/ui/button.tsx';
import { cn } from '#client/ui/cn.ts';
import { copyText } from './clipboard.ts';
import { PageSection } from '#client/ui/page-section.tsx';
import { SectionHeading } from './section-heading.tsx';
import { socialStyles } from './social-icon.tsx';

/** The four platforms, and two ways to pass them on. */
export function CommunitySection() {
  const site = useSite();
  const cards = socialCardLinks(site);

  const joinAll = async () => {
    const text = socialLinksText(site);
    if (await copyText(text)) toast({ title: 'Links Copied!' });
    // No clipboard: show the links so they can be copied by hand.
    else toast({ title: 'Social Links', description: text });
  };

  const share = async () => {
    const url = window.location.href;
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title: siteTitle(site), text: site.description, url });
        return;
      } catch (error) {
        // Closing the share sheet is a choice, not a failure.
        if (error instanceof DOMException && error.name === 'AbortError') return;
      }
    }
    if (await copyText(url)) toast({ title: 'Link copied to clipboard!' });
    else
      toast({
        title: 'Failed to copy',
        description: 'Please copy manually',
        variant: 'destructive',
      });
  };

  return (
    <PageSection
      id="community"
      className="bg-gradient-to-b from-slate-950 via-slate-900/60 to-slate-950 py-16 sm:py-24"
    >
      <SectionHeading id="community-title" eyebrow="Community" title="Join the Grind Crew">
        Memes, alpha and a crew of hard workers who show up every day. Pick your platform.
      </SectionHeading>
      <ul className="mt-12 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {cards.map((card) => {
          const style = socialStyles[card.id];
          return (
            <li key={card.id}>
              <a
                href={card.url}
                target="_blank"
                rel="noopener noreferrer"
                data-testid={`social-${card.id}`}
                className={cn(
                  'group flex h-full flex-col rounded-2xl border border-slate-800 bg-slate-900/70 p-6 transition',
                  'hover:-translate-y-0.5 hover:bg-slate-900 motion-reduce:transition-none motion-reduce:hover:translate-y-0',
                  style.card,
                )}
              >
                <span
                  className={cn(
                    'flex h-12 w-12 items-center justify-center rounded-xl',
                    style.badge,
                  )}
                >
                  <style.Icon className="h-6 w-6" />
                </span>
                <span className="mt-5 flex items-center gap-2 text-lg font-bold text-white">
                  {card.name}
                  <ExternalLink
                    className="h-4 w-4 text-slate-500 group-hover:text-slate-300"
                    aria-hidden
                  />
                </span>
                <span className="mt-1 text-sm text-slate-400">{card.description}</span>
                <span className="sr-only">(opens in a new tab)</span>
              </a>
            </li>
          );
        })}
      </ul>
      <div className="mt-10 flex flex-col justify-center gap-3 sm:flex-row">
        <Button size="lg" onClick={() => void joinAll()}>
          <Link2 className="h-5 w-5" aria-hidden /> Join All Platforms
        </Button>
        <Button size="lg" variant="outline" onClick={() => void share()}>
          <Share2 className="h-5 w-5" aria-hidden /> Share with Friends
        </Button>
      </div>
    </PageSection>
  );
}
