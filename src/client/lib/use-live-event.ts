import { useEffect, useRef } from 'react';
import type { LiveEventData, LiveEventType } from '#shared/api/live.ts';
import { onLiveEvent } from './live-events.ts';

/**
 * Runs `handler` for each live event of the given types while the component is mounted; a
 * `refetch` event (the stream missed something) is passed as `null`, so the part reloads.
 */
export function useLiveEvent<T extends Exclude<LiveEventType, 'refetch'>>(
  type: T,
  handler: (data: LiveEventData[T] | null) => void,
): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => {
    const offType = onLiveEvent(type, (data) => latest.current(data));
    const offRefetch = onLiveEvent('refetch', () => latest.current(null));
    return () => {
      offType();
      offRefetch();
    };
  }, [type]);
}
