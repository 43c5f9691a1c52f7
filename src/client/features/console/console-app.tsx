import type { ComponentType, ReactNode } from 'react';
import { Link, Route, Switch, useLocation } from 'wouter';
import { useDocumentTitle } from '#client/lib/document-title.ts';
import { withQueryClient } from '#client/lib/query-client.tsx';
import { ClusterBadge } from '#client/ui/cluster-badge.tsx';
import { cn } from '#client/ui/cn.ts';
import { BurnsPage } from './burns-page.tsx';
import { useOperator } from './console-api.ts';
import { LogPage } from './log-page.tsx';
import { PasskeyGate } from './passkey-gate.tsx';
import { MembersPage } from './members-page.tsx';
import { OverviewPage } from './overview-page.tsx';
import { PasskeysPage } from './passkeys-page.tsx';
import { QueuePage } from './queue-page.tsx';
import { RaidPage } from './raid-page.tsx';

interface Section {
  path: string;
  label: string;
  /** Admins only: a moderator has no tab for it, and its address says so (AdminOnly). */
  admin?: true;
  /** What its address shows; none for Prize week, which ConsoleApp is given. */
  page?: ComponentType;
}

const SECTIONS: Section[] = [
  { path: '/overview', label: 'Overview', page: OverviewPage },
  { path: '/queue', label: 'Queue', page: QueuePage },
  { path: '/members', label: 'Members', page: MembersPage },
  { path: '/raid', label: 'Raid', page: RaidPage },
  { path: '/log', label: 'Log', page: LogPage },
  { path: '/passkeys', label: 'Passkeys', page: PasskeysPage },
  { path: '/prize-week', label: 'Prize week', admin: true },
  { path: '/burns', label: 'Burns', admin: true, page: BurnsPage },
];

/** The console's tabs, wrapped onto a second line on a phone rather than scrolled out of sight. */
function ConsoleNav() {
  const [location] = useLocation();
  const role = useOperator().data?.role;
  return (
    <nav aria-label="Console" className="border-b border-slate-800 bg-slate-900/60">
      <ul className="mx-auto flex max-w-6xl flex-wrap gap-1 px-3 py-2">
        {SECTIONS.filter((s) => !s.admin || role === 'admin').map((section) => {
          const current = location === section.path || location.startsWith(`${section.path}/`);
          return (
            <li key={section.path}>
              <Link
                href={section.path}
                aria-current={current ? 'page' : undefined}
                className={cn(
                  'block whitespace-nowrap rounded-md px-3 py-1.5 text-sm font-medium',
                  current ? 'bg-grind-500 text-slate-950' : 'text-slate-300 hover:bg-slate-800',
                )}
              >
                {section.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/**
 * An admin's page: a moderator who opens its address is told whose it is, and gets neither its
 * form nor its reads (the server refuses those too, 403 ADMIN_ONLY).
 */
function AdminOnly({ title, children }: { title: string; children: ReactNode }) {
  const role = useOperator().data?.role;
  if (role === 'admin') return <>{children}</>;
  return (
    <section className="space-y-2">
      <h1 className="text-xl font-bold">{title}</h1>
      <p role="alert" className="text-amber-300">
        {title} is for admins only; you are signed in as a {role ?? 'member'}.
      </p>
    </section>
  );
}

/**
 * The operator console at /admin: its own chunk, behind the passkey gate. `prizeWeek`: the
 * Prize week page, composed in src/client/app (it uses the replay viewer, another feature).
 */
function ConsoleApp({ prizeWeek }: { prizeWeek?: ComponentType }) {
  useDocumentTitle('Operator console');
  return (
    <div className="min-h-[60vh]">
      <div className="mx-auto max-w-6xl px-3 pt-2 empty:hidden">
        <ClusterBadge />
      </div>
      <PasskeyGate>
        <ConsoleNav />
        <div className="mx-auto max-w-6xl px-3 py-4">
          <Switch>
            {SECTIONS.map(({ path, label, admin, page: Page = prizeWeek }) =>
              Page ? (
                <Route key={path} path={path}>
                  {admin ? (
                    <AdminOnly title={label}>
                      <Page />
                    </AdminOnly>
                  ) : (
                    <Page />
                  )}
                </Route>
              ) : null,
            )}
            <Route>
              <QueuePage />
            </Route>
          </Switch>
        </div>
      </PasskeyGate>
    </div>
  );
}

export default withQueryClient(ConsoleApp);
