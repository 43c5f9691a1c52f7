import { reasonSchema } from '#shared/api/console/common.ts';
import { Input } from '#client/ui/input.tsx';

/** Whether a reason is long enough to send: the server's own minimum (reasonSchema). */
export function reasonGiven(reason: string): boolean {
  return reason.trim().length >= (reasonSchema.minLength ?? 0);
}

/** The reason a console decision gives; the log keeps it (and the placeholder says who else reads it). */
export function ReasonInput({
  label,
  placeholder = 'Reason (kept in the log)',
  value,
  onChange,
}: {
  label: string;
  placeholder?: string;
  value: string;
  onChange: (reason: string) => void;
}) {
  return (
    <Input
      aria-label={label}
      placeholder={placeholder}
      value={value}
      onChange={(e) => onChange(e.target.value)}
    />
  );
}
