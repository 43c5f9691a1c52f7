import { CircleCheck, CircleDashed } from 'lucide-react';
import { useSite } from '#client/lib/site-config.ts';
import { cn } from '#client/ui/cn.ts';
import { SectionHeading } from './section-heading.tsx';

/** The ten steps, done ones first. */
export function RoadmapSection() {
  const { roadmap } = useSite();
  const done = roadmap.filter((step) => step.completed).length;

  return (
    <section id="roadmap" aria-labelledby="roadmap-title" className="scroll-mt-16 py-16 sm:py-24">
      <div className="mx-auto max-w-7xl px-4">
        <SectionHeading id="roadmap-title" eyebrow="The plan" title="Roadmap">
          One shift at a time, from a coffee-fuelled idea to a community that never clocks out.
        </SectionHeading>

        <div className="mx-auto mt-10 max-w-md">
          <div className="flex justify-between text-sm font-semibold">
            <span className="text-slate-300">Progress</span>
            <span className="text-grind-300">
              {done} of {roadmap.length} complete
            </span>
          </div>
          <div
            className="mt-2 h-2 overflow-hidden rounded-full bg-slate-800"
            role="progressbar"
            aria-label="Roadmap progress"
            aria-valuemin={0}
            aria-valuemax={roadmap.length}
            aria-valuenow={done}
          >
            <div
              className="h-full rounded-full bg-gradient-to-r from-grind-500 to-grind-300"
              style={{ width: `${(done / roadmap.length) * 100}%` }}
            />
          </div>
        </div>

        <ol className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
          {roadmap.map((step, index) => (
            <li
              key={step.title}
              data-testid="roadmap-step"
              data-completed={step.completed}
              className={cn(
                'relative flex items-start gap-4 rounded-2xl border p-4 sm:flex-col sm:gap-0 sm:p-5',
                step.completed
                  ? 'border-grind-500/40 bg-gradient-to-b from-grind-500/15 to-slate-900/60'
                  : 'border-slate-800 bg-slate-900/50',
              )}
            >
              <span
                className={cn(
                  'flex h-9 w-9 shrink-0 items-center justify-center rounded-full font-mono text-sm font-black',
                  step.completed ? 'bg-grind-500 text-slate-950' : 'bg-slate-800 text-slate-300',
                )}
              >
                {index + 1}
              </span>
              {step.completed ? (
                <span className="absolute top-4 right-4 inline-flex items-center gap-1 text-xs font-semibold text-grind-300 sm:top-6 sm:right-5">
                  <CircleCheck className="h-4 w-4" aria-hidden /> Completed
                </span>
              ) : (
                <span className="absolute top-4 right-4 inline-flex items-center gap-1 text-xs font-semibold text-slate-400 sm:top-6 sm:right-5">
                  <CircleDashed className="h-4 w-4" aria-hidden /> Upcoming
                </span>
              )}
              <div className="min-w-0 pr-24 sm:mt-4 sm:pr-0">
                <h3 className="font-bold text-white">
                  <span className="sr-only">Step {index + 1}: </span>
                  {step.title}
                </h3>
                <p className="mt-1 text-sm text-slate-400">{step.description}</p>
              </div>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
