// The page and its assets, from an allowlist: the HTML and CSS in ../public, the compiled page
// script in ../dist/web, and uPlot's files from node_modules (bundled with the app: no CDN).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Request, type Response, Router } from 'express';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const uplotDist = dirname(createRequire(import.meta.url).resolve('uplot'));

/** The page script's modules (client/*.ts, compiled to dist/web/client), app.js the entry. */
const CLIENT_MODULES = [
  'app',
  'api',
  'dom',
  'format',
  'live',
  'problems',
  'weak-results',
  'classic-results',
  'sweep-form',
  'sweeps',
  'timeline-chart',
  'timeline-panel',
  'workers',
];

/** URL path → [file, content type]. */
const ASSETS: Record<string, readonly [string, string]> = {
  '/style.css': [join(packageRoot, 'public', 'style.css'), 'text/css; charset=utf-8'],
  '/favicon.svg': [join(packageRoot, 'public', 'favicon.svg'), 'image/svg+xml'],
  ...Object.fromEntries(
    CLIENT_MODULES.map((name) => [
      `/${name}.js`,
      [join(packageRoot, 'dist', 'web', 'client', `${name}.js`), 'text/javascript; charset=utf-8'],
    ]),
  ),
  '/vendor/uPlot.esm.js': [join(uplotDist, 'uPlot.esm.js'), 'text/javascript; charset=utf-8'],
  '/vendor/uPlot.min.css': [join(uplotDist, 'uPlot.min.css'), 'text/css; charset=utf-8'],
};

export const PAGE_FILE = join(packageRoot, 'public', 'index.html');
export const LOGIN_FILE = join(packageRoot, 'public', 'login.html');

/** Assets readable without logging in (the login page needs its stylesheet and icon). */
export const PUBLIC_ASSETS = ['/style.css', '/favicon.svg'];

/** Serves the assets listed (default: all of them). */
export function assetRouter(only?: readonly string[]): Router {
  const router = Router();
  for (const [path, [file, type]] of Object.entries(ASSETS)) {
    if (only && !only.includes(path)) continue;
    router.get(path, (_req: Request, res: Response) => {
      res.type(type).send(readFileSync(file));
    });
  }
  return router;
}

export function readPage(file: string): string {
  return readFileSync(file, 'utf8');
}
