/**
 * `/docs`: the interactive API reference, Mboa's own page around Swagger UI, every file
 * served from this server (no CDN) under a strict Content-Security-Policy: scripts and
 * styles from this origin only, nothing inline, no eval. The operations show a curl and
 * an `@mboa/sdk` sample each (from the OpenAPI document).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type RequestHandler, type Router } from 'express';
import { guidesRouter } from './guides.js';

const OWN_ASSETS = join(dirname(fileURLToPath(import.meta.url)), 'assets');
const SWAGGER_UI = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The only files served under /docs/assets: ours and the two Swagger UI needs. */
const ASSETS: Record<string, { dir: string; type: string }> = {
  'docs.css': { dir: OWN_ASSETS, type: 'text/css' },
  'docs.js': { dir: OWN_ASSETS, type: 'text/javascript' },
  'mboa.svg': { dir: OWN_ASSETS, type: 'image/svg+xml' },
  'swagger-ui.css': { dir: SWAGGER_UI, type: 'text/css' },
  'swagger-ui-bundle.js': { dir: SWAGGER_UI, type: 'text/javascript' },
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mboa API reference</title>
<meta name="description" content="Mboa real estate data API for Cameroon: listings, market statistics and valuations (on asking prices). Reference with curl and @mboa/sdk samples.">
<link rel="icon" href="/docs/assets/mboa.svg" type="image/svg+xml">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="stylesheet" href="/docs/assets/docs.css">
</head>
<body>
<header class="mboa-bar">
  <a class="mboa-brand" href="/docs"><img src="/docs/assets/mboa.svg" alt="" width="28" height="28"><span>Mboa</span></a>
  <span class="mboa-tagline">Real estate data API for Cameroon</span>
  <nav>
    <a href="/api/v1/openapi.json">OpenAPI document</a>
    <a href="/docs/guides">Guides: API, feeds, valuations, operations</a>
    <a href="/dashboard">Dashboard: your keys and usage</a>
  </nav>
</header>
<p class="mboa-key-note">__KEY_NOTE__</p>
<main id="reference" data-openapi="/api/v1/openapi.json"__DEMO_KEY__><noscript>The interactive reference needs JavaScript; the <a href="/api/v1/openapi.json">OpenAPI document</a> does not.</noscript></main>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/docs.js"></script>
</body>
</html>
`;

/** `connectOrigins`: where "Try it out" may call besides this origin (the public URL, when set). */
function contentSecurityPolicy(connectOrigins: string[]): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${["'self'", ...connectOrigins].join(' ')}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The site's icon, Mboa's mark, at `/favicon.svg` (which the dashboard's pages link) and
 * `/favicon.ico` (which browsers ask for by themselves on any other page).
 */
export function favicon(): RequestHandler {
  const body = readFileSync(join(OWN_ASSETS, 'mboa.svg'));
  return (_req, res) => {
    res.setHeader('Content-Type', 'image/svg+xml');
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.send(body);
  };
}

/** The page as served: in demo mode with the demo Starter key filled in, elsewhere saying to press Authorize. */
function pageFor(demoKey: string | undefined): string {
  const note = demoKey
    ? `Demo mode: "Try it out" calls as the demo <strong>Starter</strong> account, whose key (<code>${escapeHtml(demoKey.slice(0, 14))}…</code>, in the data folder's <code>demo-keys.json</code> and printed by <code>npm start</code>) is filled in. Press Authorize to use another.`
    : 'To try a call: press <strong>Authorize</strong>, paste your API key (made on the <a href="/dashboard">dashboard</a>), then "Try it out".';
  return PAGE.replace('__KEY_NOTE__', note).replace('__DEMO_KEY__', demoKey ? ` data-demo-key="${escapeHtml(demoKey)}"` : '');
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** `demoKey`: demo mode only (never set in production): the key "Try it out" starts with. */
export function docsRouter(options: { publicUrl?: string; demoKey?: string } = {}): Router {
  const router = express.Router();
  const page = pageFor(options.demoKey);
  const origins = options.publicUrl ? [new URL(options.publicUrl).origin] : [];
  const csp = contentSecurityPolicy(origins);
  const files = new Map(Object.entries(ASSETS).map(([name, a]) => [name, { body: readFileSync(join(a.dir, name)), type: a.type }]));

  router.get('/', (_req, res) => {
    res.setHeader('Content-Security-Policy', csp);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.type('html').send(page);
  });
  router.use('/guides', guidesRouter());
  router.get('/assets/:file', (req, res, next) => {
    const file = files.get(req.params.file);
    if (!file) return next();
    res.setHeader('Content-Type', `${file.type}; charset=utf-8`);
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.send(file.body);
  });
  return router;
}
