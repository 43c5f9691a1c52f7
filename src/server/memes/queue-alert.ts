import type { AppDeps } from '../deps.ts';
import { enqueueAlert } from '../alerts/outbox.ts';
import { openReportCount } from './report-queue.ts';

/**
 * Tells the moderators once the open reports reach ALERT_QUEUE_SIZE (docs/decisions/027): on the
 * report that makes the count reach it, not on every one after, so a flood is one alert; it
 * alerts again after the queue fell under and grew back.
 */
export async function alertIfQueuePastSize(
  deps: Pick<AppDeps, 'db' | 'config' | 'clock'>,
): Promise<void> {
  const { queueSize } = deps.config.alerts;
  if ((await openReportCount(deps.db)) !== queueSize) return;
  await enqueueAlert(
    deps.db,
    deps.config.alerts,
    {
      kind: 'queue-size',
      subject: `${queueSize} reports wait in the queue`,
      body: `The report queue has reached ${queueSize} open reports. Memes reported from three networks are hidden until a moderator decides.`,
    },
    deps.clock.now(),
  );
}
