// LinkedIn's logged-out public pages as the emulator serves them (docs/platforms.md#the-emulator):
// /company/<name>/ and /in/<name>/, 404 for a missing name, bot-block 999 when throttled.
import type { EmulatedCounts, EmulatorReply, PlatformEmulator } from '../emulatorContract.js';
import { abbreviateCount } from '../counts.js';

const companyPath = /^\/company\/([^/]+)\/$/;
const profilePath = /^\/in\/([^/]+)\/$/;

const html = (status: number, body: string): EmulatorReply => ({ status, headers: { 'content-type': 'text/html; charset=utf-8' }, body });

/** Names are written HTML-escaped, as LinkedIn writes "AT&amp;T". */
const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

const document = (title: string, head: string, main: string) =>
  `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body><main class="main">${main}</main></body></html>`;

/** The follower count in the meta description: "12,345 followers", or "12.3K followers" for `rounded*` names. */
function companyPage(identifier: string, counts: EmulatedCounts, rounded: boolean): string {
  const name = escapeHtml(identifier);
  const followers = rounded ? abbreviateCount(counts.followers) : counts.followers.toLocaleString('en-US');
  const description = `${name} | ${followers} followers on LinkedIn. Building what comes next.`;
  return document(
    `${name} | LinkedIn`,
    `<meta name="description" content="${description}"><meta property="og:description" content="${description}">` +
      `<script type="application/ld+json">{"@context":"http://schema.org","@type":"Organization","name":"${name}","url":"https://www.linkedin.com/company/${encodeURIComponent(identifier)}"}</script>`,
    `<section class="top-card-layout"><h1 class="top-card-layout__title">${name}</h1><h3 class="top-card-layout__first-subline">Software Development ${followers} followers</h3></section>`,
  );
}

function profilePage(name: string, ldJson: string): string {
  return document(
    `${name} | LinkedIn`,
    `<meta name="description" content="Experience: ${name} Labs · Location: Berlin · 500+ connections on LinkedIn."><script type="application/ld+json">${ldJson}</script>`,
    `<section class="top-card-layout"><h1 class="top-card-layout__title">${name}</h1></section>`,
  );
}

/** A profile page's JSON-LD, where the Person carries the follower count. */
const personGraph = (name: string, counts: EmulatedCounts) =>
  JSON.stringify({
    '@context': 'http://schema.org',
    '@graph': [
      {
        '@type': 'Person',
        name,
        url: `https://www.linkedin.com/in/${name}`,
        interactionStatistic: {
          '@type': 'InteractionCounter',
          interactionType: 'http://schema.org/FollowAction',
          name: 'Follows',
          userInteractionCount: counts.followers,
        },
      },
      { '@type': 'WebPage', url: `https://www.linkedin.com/in/${name}` },
    ],
  });

const missingPage = html(404, document('Page not found | LinkedIn', '', '<h1>Page not found</h1>'));
/** 999: LinkedIn's answer to automated traffic, a head-only page whose script sends a browser to the authwall. */
const botBlock: EmulatorReply = {
  status: 999,
  headers: { 'content-type': 'text/html' },
  body: '<html><head><script type="text/javascript">window.onload = function() { window.location.href = "https://" + location.host + "/authwall?trk=bf&trkInfo=bf&sessionRedirect=" + encodeURIComponent(window.location.href); }</script></head></html>',
};

export const emulator: PlatformEmulator = {
  handle(request, context) {
    const company = companyPath.exec(request.path);
    const profile = profilePath.exec(request.path);
    if (!company && !profile) return undefined;
    const name = decodeURIComponent((company ?? profile)![1]!);
    const resource = context.lookup(company ? 'organization' : 'account', name);
    switch (resource.mode) {
      case 'missing':
        return missingPage;
      case 'ratelimit':
        return botBlock;
      case 'malformed':
        return html(
          200,
          company
            ? document(`${escapeHtml(name)} | LinkedIn`, '<meta name="description" content="', '')
            : profilePage(name, '{"@graph":[{"@type":"Pers'),
        );
      case 'normal':
        return html(
          200,
          company ? companyPage(name, resource.counts, resource.rounded) : profilePage(name, personGraph(name, resource.counts)),
        );
    }
  },
};
