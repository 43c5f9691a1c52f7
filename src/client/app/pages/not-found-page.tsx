import { Link } from 'wouter';
import { buttonClasses } from '#client/ui/button.tsx';

export function NotFoundPage() {
  return (
    <div className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 px-4 text-center">
      <h1 className="text-4xl font-extrabold text-grind-400">404 Page Not Found</h1>
      <p className="text-slate-400">This page clocked out. Let&apos;s get you back to the grind.</p>
      <Link href="/" className={buttonClasses('primary', 'lg')}>
        Go Home
      </Link>
    </div>
  );
}
