/**
 * The site's process from the server's bundle (scripts/bundle.mjs), built first when a source is
 * newer: what `npm start` runs once the client is built, and how tests start a server node.
 */
import module from 'node:module';
import { bundledEntry } from './bundle.mjs';

// Node 22+ keeps the bundle's compiled code between starts (a no-op on Node 20, which lacks it).
module.enableCompileCache?.();
await import(await bundledEntry('server'));
