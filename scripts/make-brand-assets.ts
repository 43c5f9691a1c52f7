/**
 * Renders the site's PNG icons, the Open Graph image and the web manifest from the hand-drawn
 * SVG sources in public/ (mascot.svg, favicon.svg) and the facts in src/shared/site.ts.
 * Run: npx tsx scripts/make-brand-assets.ts   (outputs are committed; rerun after editing art)
 *
 * Text in the Open Graph image is laid out by fontconfig; the outputs were made with DejaVu Sans
 * (the fonts-dejavu package), so a machine without it renders the same picture in another face.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { brandAssets, defaultSite } from '#shared/site.ts';

const publicDir = path.join(import.meta.dirname, '..', 'public');
const palette = {
  slate950: '#020617',
  slate900: '#0f172a',
  slate800: '#1e293b',
  slate300: '#cbd5e1',
  slate50: '#f8fafc',
  amber500: '#f59e0b',
  amber400: '#fbbf24',
};

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The drawing inside an SVG file, so it can be nested in another picture. */
function innerSvg(svg: string): string {
  const start = svg.indexOf('>', svg.indexOf('<svg')) + 1;
  const end = svg.lastIndexOf('</svg>');
  // The <title> names the standalone image; nested in a PNG it would only add bytes.
  return svg.slice(start, end).replace(/<title[^>]*>.*?<\/title>/s, '');
}

/**
 * Pudge as a full-bleed square icon. `viewBox` picks the part of the 400x440 mascot to show;
 * his body runs off the bottom edge like a portrait bust.
 */
function appIconSvg(mascot: string, size: number, viewBox: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
  <rect width="${size}" height="${size}" fill="${palette.slate900}"/>
  <svg width="${size}" height="${size}" viewBox="${viewBox}">${mascot}</svg>
</svg>`;
}

// Head and mug filling the square.
const iconView = '19 11 374 374';
// Zoomed out so the face stays inside the centre circle (40% radius) that masks may cut to.
const maskableView = '-27 -37 474 474';

function ogImageSvg(mascot: string): string {
  const { width, height } = brandAssets.ogImage;
  const font = `'DejaVu Sans', 'Helvetica Neue', Arial, sans-serif`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <defs>
    <linearGradient id="og-bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="${palette.slate950}"/>
      <stop offset="1" stop-color="${palette.slate800}"/>
    </linearGradient>
  </defs>
  <rect width="${width}" height="${height}" fill="url(#og-bg)"/>
  <rect x="0" y="${height - 12}" width="${width}" height="12" fill="${palette.amber500}"/>
  <g font-family="${font}" font-weight="bold">
    <text x="72" y="150" font-size="30" fill="${palette.amber400}" letter-spacing="4">${escapeXml(defaultSite.chain.toUpperCase())} MEME TOKEN</text>
    <text x="68" y="268" font-size="96" fill="${palette.slate50}">${escapeXml(defaultSite.brand)}</text>
    <text x="70" y="370" font-size="80" fill="${palette.amber400}">${escapeXml(defaultSite.ticker)}</text>
    <text x="72" y="450" font-size="36" font-weight="normal" fill="${palette.slate300}">${escapeXml(defaultSite.tagline)}</text>
  </g>
  <g font-family="${font}" font-size="24" fill="${palette.slate300}">
    <text x="72" y="540">Weekly giveaways · Weekly burns · Play the game</text>
  </g>
  <svg x="715" y="${height - 12 - 528}" width="480" height="528" viewBox="0 0 400 440">${mascot}</svg>
</svg>`;
}

async function writePng(
  name: string,
  svg: string | Buffer,
  size: { width: number; height: number },
) {
  const output = path.join(publicDir, name);
  // A 256-colour palette keeps flat vector art crisp at a fraction of the bytes.
  const info = await sharp(Buffer.from(svg), { density: 288 })
    .resize(size.width, size.height)
    .png({ palette: true, colours: 256, compressionLevel: 9, effort: 10 })
    .toFile(output);
  console.log(`${name}: ${info.width}x${info.height}, ${(info.size / 1024).toFixed(1)} KB`);
}

async function main() {
  const mascot = innerSvg(await readFile(path.join(publicDir, 'mascot.svg'), 'utf8'));
  const favicon = await readFile(path.join(publicDir, 'favicon.svg'));

  await writePng('favicon-32.png', favicon, { width: 32, height: 32 });
  await writePng('apple-touch-icon.png', appIconSvg(mascot, 180, iconView), {
    width: 180,
    height: 180,
  });
  await writePng('icon-192.png', appIconSvg(mascot, 192, iconView), { width: 192, height: 192 });
  await writePng('icon-512.png', appIconSvg(mascot, 512, iconView), { width: 512, height: 512 });
  await writePng('icon-maskable-512.png', appIconSvg(mascot, 512, maskableView), {
    width: 512,
    height: 512,
  });
  await writePng('og-image.png', ogImageSvg(mascot), brandAssets.ogImage);

  const manifest = {
    name: `${defaultSite.brand} (${defaultSite.ticker})`,
    short_name: defaultSite.brand,
    description: defaultSite.tagline,
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: brandAssets.themeColor,
    background_color: brandAssets.backgroundColor,
    icons: [
      { src: '/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
      { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
    ],
  };
  await writeFile(
    path.join(publicDir, 'site.webmanifest'),
    `${JSON.stringify(manifest, null, 2)}\n`,
  );
  console.log('site.webmanifest written');
}

await main();
