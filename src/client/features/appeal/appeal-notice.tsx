import { useEffect } from 'react';
import { appealSeenEndpoint } from '#shared/api/appeals.ts';
import { callEndpoint } from '#client/lib/api-call.ts';
import { clearAppealNotice, useAppeal } from '#client/lib/appeal-store.ts';
import { toast } from '#client/lib/toast-store.ts';

/**
 * Tells the member the decision on their appeal, once: a toast, then "seen" to the server. If
 * that call fails the next visit tells it again (told twice beats never told).
 */
export default function AppealNotice() {
  const { notice } = useAppeal();
  useEffect(() => {
    if (!notice) return;
    toast({
      title: notice.decision === 'lifted' ? 'Your suspension is lifted' : 'Your suspension stands',
      description: `A moderator decided on your appeal: ${notice.note}`,
    });
    clearAppealNotice();
    callEndpoint(appealSeenEndpoint, { params: { id: notice.id } }).catch(() => undefined);
  }, [notice]);
  return null;
}
