import { useQuery, useQueryClient } from '@tanstack/react-query';
import { burnsEndpoint, chainPaths } from '#shared/api/chain.ts';
import { callEndpoint } from '#client/lib/api-call.ts';
import { withQueryClient } from '#client/lib/query-client.tsx';
import { useSite } from '#client/lib/site-config.ts';
import { useLiveEvent } from '#client/lib/use-live-event.ts';
import { burnFigures } from './burn-figures.ts';
import { BurnPanelView } from './burn-panel-view.tsx';

/**
 * Loaded on demand, after the first paint: the burns verified on chain. Until they arrive, and
 * before the first one (or if the read fails), the site config's starting figures, as rendered.
 */
function LiveBurnPanel() {
  const site = useSite();
  const burns = useQuery({
    queryKey: [chainPaths.burns],
    queryFn: () => callEndpoint(burnsEndpoint),
  });
  const queryClient = useQueryClient();
  // A burn recorded (console or CLI): the figures are read again in place.
  useLiveEvent('burns', () => void queryClient.invalidateQueries({ queryKey: [chainPaths.burns] }));
  return <BurnPanelView figures={burnFigures(site, burns.data)} />;
}

export default withQueryClient(LiveBurnPanel);
