import { useEffect, useState } from 'react';
import { RAID_NOTICE } from '#shared/raid.ts';
import { raidModeOn } from '#client/lib/raid-status.ts';

/** A line under the header while the site is in raid mode (docs/decisions/027-raid-day.md). */
export default function RaidNotice() {
  const [on, setOn] = useState(false);
  useEffect(() => {
    let live = true;
    const check = () => void raidModeOn().then((active) => live && setOn(active));
    check();
    const timer = setInterval(check, 60_000);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, []);
  if (!on) return null;
  return (
    <p
      role="status"
      data-testid="raid-notice"
      className="border-b border-amber-800 bg-amber-950/60 px-4 py-2 text-center text-sm text-amber-200"
    >
      {RAID_NOTICE}
    </p>
  );
}
