import { Check, Copy } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { toast } from '#client/lib/toast-store.ts';
import { Button, type ButtonVariant } from '#client/ui/button.tsx';
import { copyText } from './clipboard.ts';

const COPIED_FEEDBACK_MS = 2000;

/** Copies the contract address; the button reads "Copied!" for two seconds afterwards. */
export function CopyAddressButton({
  address,
  variant = 'primary',
  size = 'md',
  className,
}: {
  address: string;
  variant?: ButtonVariant;
  size?: 'sm' | 'md';
  className?: string;
}) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async () => {
    if (await copyText(address)) {
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), COPIED_FEEDBACK_MS);
      toast({ title: 'Copied!', description: 'Contract address copied to clipboard' });
    } else {
      toast({
        title: 'Failed to copy',
        description: 'Please copy manually',
        variant: 'destructive',
      });
    }
  };

  return (
    <Button variant={variant} size={size} className={className} onClick={() => void copy()}>
      {copied ? (
        <Check className="h-4 w-4" aria-hidden />
      ) : (
        <Copy className="h-4 w-4" aria-hidden />
      )}
      {copied ? (
        'Copied!'
      ) : (
        <>
          Copy<span className="sr-only"> contract address</span>
        </>
      )}
    </Button>
  );
}
