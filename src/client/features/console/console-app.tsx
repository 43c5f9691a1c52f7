import { useEffect, type ComponentType } from 'react';
import { Link, Route, Switch, useLocation } from 'wouter';
import { withQueryClient } from '#client/lib/query-client.tsx';
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
  admin?: true;
}

const SECTIONS: Section[] = [
  { path: '/overview', label: 'Overview' },
  { path: '/queue', label: 'Queue' },
  { path: '/members', label: 'Members' },
  { path: '/raid', label: 'Raid' },
  { path: '/log', label: 'Log' },
  { path: '/passkeys', label: 'Passkeys' },
  { path: '/prize-week', label: 'Prize week', admin: true },
  { path: '/burns', label: 'Burns', admin: true },
];

function ConsoleNav() {
  const [location] = useLocation();
  const role = useOperator().data?.role;
  return (
    <nav aria-label="Console" className="border-b border-slate-800 bg-slate-900/60">
      <ul className="mx-auto flex max-w-6xl gap-1 overflow-x-auto px-3 py-2">
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
 * The operator console at /admin: its own chunk, behind the passkey gate. `prizeWeek`: the
 * Prize week page, composed in src/client/app (it uses the replay viewer, another feature).
 */
function ConsoleApp({ prizeWeek }: { prizeWeek?: ComponentType }) {
  useEffect(() => {
    const title = document.title;
    document.title = 'Operator console';
    return () => {
      document.title = title;
    };
  }, []);
  return (
    <div className="min-h-[60vh]">
      <PasskeyGate>
        <ConsoleNav />
        <div className="mx-auto max-w-6xl px-3 py-4">
          <Switch>
            <Route path="/overview" component={OverviewPage} />
            <Route path="/queue" component={QueuePage} />
            <Route path="/members" component={MembersPage} />
            <Route path="/raid" component={RaidPage} />
            <Route path="/log" component={LogPage} />
            <Route path="/passkeys" component={PasskeysPage} />
            {prizeWeek && <Route path="/prize-week" component={prizeWeek} />}
            <Route path="/burns" component={BurnsPage} />
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
