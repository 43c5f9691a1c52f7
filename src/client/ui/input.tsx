import type { InputHTMLAttributes, Ref } from 'react';
import { cn } from './cn.ts';

export function Input({
  className,
  ref,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> }) {
  return (
    <input
      ref={ref}
      className={cn(
        'h-10 w-full rounded-lg border border-slate-700 bg-slate-900 px-3 text-sm text-slate-100',
        'placeholder:text-slate-500 focus:border-grind-400 focus:outline-none',
        'aria-[invalid=true]:border-red-500',
        className,
      )}
      {...props}
    />
  );
}
