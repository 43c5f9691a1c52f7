// The page renderer's thread (site/pages.ts starts it once at start and ends it when it has
// answered): imports the client's server renderer (entry-server.js) and posts back the HTML of
// each page path asked for, in order. Plain JavaScript, so it runs wherever the server runs
// (under tsx, or a test runner's own loader).
import { pathToFileURL } from 'node:url';
import { parentPort, workerData } from 'node:worker_threads';

const { rendererFile, pagePaths, facts } = workerData;
const renderer = await import(pathToFileURL(rendererFile).href);
const pages = [];
for (const pagePath of pagePaths) pages.push(await renderer.renderPage(pagePath, facts));
parentPort.postMessage(pages);
