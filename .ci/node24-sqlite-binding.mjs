// Loaded with `--import` by .ci/node24 only: better-sqlite3's native module in node_modules is
// built for the machine's Node, so under Node 24 its require() is sent to the copy .ci/node24
// built for Node 24's ABI (BETTER_SQLITE3_BINDING). Nothing in node_modules changes, so the
// Node 20 run before and after is untouched.
import { registerHooks } from 'node:module';
import { pathToFileURL } from 'node:url';

const binding = pathToFileURL(process.env.BETTER_SQLITE3_BINDING).href;

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier.endsWith('/better_sqlite3.node')) {
      return { url: binding, format: 'addon', shortCircuit: true };
    }
    return nextResolve(specifier, context);
  },
});
