/**
 * `npm run admin -- <command>`: the operator CLI, run from the server's bundle (scripts/bundle.mjs)
 * instead of compiling src/server/cli with tsx at every start, which took 7 s on an idle 2-core
 * machine (docs/decisions/030).
 */
import module from 'node:module';
import { bundledEntry } from './bundle.mjs';

// Node 22+ keeps the bundle's compiled code between runs (a no-op on Node 20, which lacks it).
module.enableCompileCache?.();
await import(await bundledEntry('admin'));
