import { Eye, EyeOff } from 'lucide-react';
import type { InputHTMLAttributes, Ref } from 'react';
import { Input } from '#client/ui/input.tsx';

export function PasswordInput({
  visible,
  onToggle,
  ref,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & {
  visible: boolean;
  onToggle: () => void;
  ref?: Ref<HTMLInputElement>;
}) {
  return (
    <div className="relative">
      <Input ref={ref} type={visible ? 'text' : 'password'} className="pr-10" {...props} />
      <button
        type="button"
        onClick={onToggle}
        aria-label={visible ? 'Hide password' : 'Show password'}
        aria-pressed={visible}
        className="absolute top-1/2 right-2 -translate-y-1/2 rounded p-1 text-slate-400 hover:text-slate-100"
      >
        {visible ? (
          <EyeOff className="h-4 w-4" aria-hidden />
        ) : (
          <Eye className="h-4 w-4" aria-hidden />
        )}
      </button>
    </div>
  );
}
