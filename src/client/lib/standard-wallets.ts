import { useEffect, useState } from 'react';
import { getWallets } from '@wallet-standard/app';
import type { Wallet } from '@wallet-standard/base';

/**
 * The Wallet Standard wallets in this browser that `accept` takes, kept current as extensions
 * register and unregister. `accept` must be a stable (module-level) function.
 */
export function useStandardWallets(accept: (wallet: Wallet) => boolean): readonly Wallet[] {
  const [wallets, setWallets] = useState<readonly Wallet[]>(() =>
    getWallets().get().filter(accept),
  );
  useEffect(() => {
    const registry = getWallets();
    const refresh = () => setWallets(registry.get().filter(accept));
    const offRegister = registry.on('register', refresh);
    const offUnregister = registry.on('unregister', refresh);
    return () => {
      offRegister();
      offUnregister();
    };
  }, [accept]);
  return wallets;
}
