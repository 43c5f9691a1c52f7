import type { ButtonHTMLAttributes } from 'react';
import { cn } from './cn.ts';

const variants = {
  primary: 'bg-grind-500 text-slate-950 hover:bg-grind-400 shadow-sm',
  secondary: 'bg-slate-800 text-slate-100 hover:bg-slate-700 border border-slate-700',
  ghost: 'text-slate-200 hover:bg-slate-800',
  outline: 'border border-grind-500 text-grind-300 hover:bg-grind-500/10',
} as const;

const sizes = {
  sm: 'h-8 px-3 text-sm',
  md: 'h-10 px-4 text-sm',
  lg: 'h-12 px-6 text-base',
  icon: 'h-10 w-10',
} as const;

export type ButtonVariant = keyof typeof variants;

export function buttonClasses(variant: ButtonVariant = 'primary', size: keyof typeof sizes = 'md') {
  return cn(
    'inline-flex items-center justify-center gap-2 rounded-lg font-semibold transition-colors',
    'disabled:cursor-not-allowed disabled:opacity-50',
    variants[variant],
    sizes[size],
  );
}

export function Button({
  variant,
  size,
  className,
  type = 'button',
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant;
  size?: keyof typeof sizes;
}) {
  return <button type={type} className={cn(buttonClasses(variant, size), className)} {...props} />;
}
