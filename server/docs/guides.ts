/**
 * `/docs/guides`: the topic pages of the repository's `docs/` folder (the API guide, feeds
 * and maps, valuations, operations, one runbook per alert...), served as they are written
 * (Markdown, as plain text) from this server, so a reader behind a bank's proxy with no
 * internet finds them beside the reference. `npm run build` copies the folder into `dist/`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Router } from 'express';

const GUIDES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs');

/** `name.md` and `runbooks/name.md` → the page's text; its first line (`# Title`) names it. */
function readGuides(): Map<string, string> {
  const pages = new Map<string, string>();
  for (const dir of ['', 'runbooks']) {
    const at = join(GUIDES, dir);
    if (!existsSync(at)) continue;
    for (const file of readdirSync(at)
      .filter((f) => f.endsWith('.md'))
      .sort()) {
      pages.set(dir ? `${dir}/${file}` : file, readFileSync(join(at, file), 'utf8'));
    }
  }
  return pages;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function indexPage(pages: Map<string, string>): string {
  const items = [...pages]
    .map(([path, text]) => {
      const title = /^# (.+)$/m.exec(text)?.[1] ?? path;
      return `<li><a href="/docs/guides/${escapeHtml(path)}">${escapeHtml(title)}</a> <code>docs/${escapeHtml(path)}</code></li>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Mboa guides</title>
<link rel="icon" href="/docs/assets/mboa.svg" type="image/svg+xml">
<link rel="stylesheet" href="/docs/assets/docs.css">
</head>
<body>
<header class="mboa-bar">
  <a class="mboa-brand" href="/docs"><img src="/docs/assets/mboa.svg" alt="" width="28" height="28"><span>Mboa</span></a>
  <span class="mboa-tagline">Guides (Markdown, as in the repository's docs/ folder)</span>
</header>
<main class="mboa-guides"><ul>
${items}
</ul></main>
</body>
</html>
`;
}

export function guidesRouter(): Router {
  const router = express.Router();
  const pages = readGuides();
  const index = indexPage(pages);
  const headers = (res: express.Response) => {
    res.setHeader('Content-Security-Policy', "default-src 'none'; style-src 'self'; img-src 'self'");
    res.setHeader('X-Content-Type-Options', 'nosniff');
  };
  router.get('/', (_req, res) => {
    headers(res);
    res.type('html').send(index);
  });
  router.get(['/:file', '/runbooks/:file'], (req, res, next) => {
    const path = req.path.slice(1);
    const text = pages.get(path);
    if (text === undefined) return next();
    headers(res);
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.send(text);
  });
  return router;
}
