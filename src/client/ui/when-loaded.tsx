import type { ReactNode } from 'react';
import { cn } from './cn.ts';

/**
 * A page's one read: `children` with its data once it is there, an alert saying `failed` if the
 * read failed, else a pulsing placeholder (`placeholderClassName` gives its size) in its place.
 */
export function WhenLoaded<T>({
  read,
  failed,
  failedClassName,
  placeholderClassName,
  placeholderLabel,
  children,
}: {
  read: { data: T | undefined; isError: boolean };
  failed: string;
  failedClassName?: string;
  placeholderClassName: string;
  placeholderLabel: string;
  children: (data: T) => ReactNode;
}) {
  if (read.data !== undefined) return children(read.data);
  if (read.isError) {
    return (
      <p className={cn(failedClassName, 'text-center text-slate-300')} role="alert">
        {failed}
      </p>
    );
  }
  return (
    <div
      className={cn(placeholderClassName, 'animate-pulse rounded-2xl bg-slate-800')}
      role="status"
      aria-label={placeholderLabel}
    />
  );
}
