import type { MemberPage } from '#shared/api/members.ts';
import { memberPaths, memePaths, pathTo } from '#shared/api/paths.ts';
import { getCharacter } from '#shared/characters.ts';
import { NEVER_A_TRANSACTION } from '#shared/holders.ts';
import { brandAssets } from '#shared/site.ts';
import { STANDING_LABELS } from '#shared/standing.ts';
import { shortAddress } from '#shared/siws.ts';
import { escapeHtml, renderShellPage, shareCardTags, type MetaTag } from '../site/index-html.ts';

const monthYear = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });

/** One line about the member, for link previews and the page's description. */
function memberSummary(page: MemberPage, brand: string): string {
  if (page.status === 'suspended') return `${page.username}'s account on ${brand} is suspended.`;
  if (page.status === 'deleted') return `${page.username}'s account on ${brand} was deleted.`;
  const parts = [`Member since ${monthYear(page.memberSince)}`];
  if (page.holder) parts.push(`${page.holder.label} of the token`);
  parts.push(`${page.memes.length} meme${page.memes.length === 1 ? '' : 's'}`);
  const best = page.bestRuns[0];
  if (best) parts.push(`best score ${best.score}`);
  if (page.prizeWeeks.length > 0) {
    parts.push(
      `won ${page.prizeWeeks.length} weekly prize${page.prizeWeeks.length === 1 ? '' : 's'}`,
    );
  }
  return `${page.username} on ${brand}: ${parts.join(', ')}.`;
}

function activeBody(page: Extract<MemberPage, { status: 'active' }>): string {
  const e = escapeHtml;
  const lines: string[] = [
    `<p>Member since ${e(monthYear(page.memberSince))}. Standing: ${e(STANDING_LABELS[page.standing])}. Plays as ${e(getCharacter(page.character).name)}.</p>`,
  ];
  if (page.holder) lines.push(`<p><strong>${e(page.holder.label)}</strong> of the token.</p>`);
  if (page.wallet) lines.push(`<p>Wallet: <code>${e(shortAddress(page.wallet))}</code></p>`);
  const list = (title: string, items: string[], empty: string) =>
    `<h2>${title}</h2>${items.length ? `<ul>${items.map((i) => `<li>${i}</li>`).join('')}</ul>` : `<p>${empty}</p>`}`;
  lines.push(
    list(
      'Memes',
      page.memes.map(
        (m) =>
          `<a href="${e(pathTo(memePaths.page, { id: m.id }))}">${e(m.title)}</a> (${m.upvotes} up, ${m.downvotes} down)`,
      ),
      'No memes yet.',
    ),
    list(
      'Best runs',
      page.bestRuns.map(
        (r) => `${r.score} points in ${e(r.week)} (<a href="${e(r.replay)}">watch the replay</a>)`,
      ),
      'No ranked runs yet.',
    ),
    list(
      'Weekly prizes won',
      page.prizeWeeks.map(
        (p) => `${e(p.week)}: ${e(p.prize)} (<a href="${e(p.txUrl)}">the payment on chain</a>)`,
      ),
      'No weekly prize yet.',
    ),
    `<p>${e(NEVER_A_TRANSACTION)}</p>`,
  );
  return lines.join('\n      ');
}

/**
 * The client's HTML shell as a member's page: its Open Graph and Twitter card tags (a shared
 * link previews as the member) and, for readers and bots without scripts, what the page says,
 * in the body. A suspended or deleted member's page says only that, and asks not to be indexed.
 */
export function renderMemberPage(
  shell: string,
  page: MemberPage,
  site: { brand: string },
  origin: string,
): string {
  const url = `${origin}${pathTo(memberPaths.page, { username: page.username })}`;
  const title = `${page.username} - ${site.brand}`;
  const tags: MetaTag[] = [
    ...shareCardTags({
      type: 'profile',
      siteName: site.brand,
      title,
      description: memberSummary(page, site.brand),
      url,
      image: {
        url: `${origin}${brandAssets.ogImage.src}`,
        width: brandAssets.ogImage.width,
        height: brandAssets.ogImage.height,
      },
      twitterCard: 'summary',
    }),
    ['property', 'profile:username', page.username],
    ...(page.status === 'active' ? [] : [['name', 'robots', 'noindex'] as MetaTag]),
  ];
  const said =
    page.status === 'active'
      ? activeBody(page)
      : `<p>This account ${page.status === 'suspended' ? 'is suspended' : 'was deleted'}.</p>`;
  return renderShellPage(shell, {
    title,
    url,
    tags,
    body: [
      `<h1>${escapeHtml(page.username)}</h1>`,
      said,
      `<p><a href="/">${escapeHtml(site.brand)}</a></p>`,
    ],
  });
}
