import { formatTokenUnits } from '#shared/format-units.ts';
import { positionals, UsageError, type CliCommand } from '../cli-command.ts';
import { isSignature } from '../chain/verify.ts';
import { HttpError } from '../http-error.ts';
import { chainRpcFor } from '../prize/payments.ts';
import { recordBurn } from './service.ts';

const burnsRecordCommand: CliCommand = {
  usage: 'burns:record <signature>',
  summary:
    "Records a token burn once the chain says it is a finalized burn of the site's mint; the amount and time come from the transaction.",
  async run(ctx, args) {
    const [signature] = positionals(args, ['signature']);
    if (!isSignature(signature!)) {
      throw new UsageError('<signature> must be a transaction signature (base58 of 64 bytes)');
    }
    try {
      const burn = await recordBurn(
        { db: ctx.db, site: ctx.site, rpc: chainRpcFor(ctx.config), clock: ctx.clock },
        signature!,
      );
      ctx.print(
        `Verified and recorded: ${formatTokenUnits(burn.amount, burn.decimals)} ${ctx.site.ticker} burned at ${burn.burnedAt}, slot ${burn.slot}, transaction ${burn.signature}. The burn panel shows it.`,
      );
      return 0;
    } catch (error) {
      if (error instanceof HttpError) {
        ctx.print(`Refused: ${error.message}. Nothing recorded.`);
        return 1;
      }
      throw error;
    }
  },
};

export const burnCliCommands: Record<string, CliCommand> = {
  'burns:record': burnsRecordCommand,
};
