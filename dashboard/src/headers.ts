// Response headers every answer carries: a CSP without inline script, no framing, no sniffing,
// no referrer, and no caching of anything but the static assets.
import type { NextFunction, Request, Response } from 'express';

/** The page's policy: scripts and styles from this origin only (uPlot sets styles from JS). */
const PAGE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * bull-board's page styles its loading screen inline and sets `<base href>` to its mount path;
 * its scripts are still files only.
 */
const BULL_BOARD_CSP = PAGE_CSP.replace(
  "style-src 'self'",
  "style-src 'self' 'unsafe-inline'",
).replace("base-uri 'none'", "base-uri 'self'");

export function securityHeaders(req: Request, res: Response, next: NextFunction): void {
  res.setHeader(
    'Content-Security-Policy',
    req.path.startsWith('/queues') ? BULL_BOARD_CSP : PAGE_CSP,
  );
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  res.setHeader('Permissions-Policy', 'camera=(), microphone=(), geolocation=()');
  // Results and sweeps may be private: nothing but the versioned assets is kept by caches.
  res.setHeader('Cache-Control', isAsset(req.path) ? 'no-cache' : 'no-store');
  next();
}

function isAsset(path: string): boolean {
  return /^\/(app\.js|style\.css|favicon\.svg|vendor\/[A-Za-z.]+)$/.test(path);
}
