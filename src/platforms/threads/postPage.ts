// The public post page https://www.threads.net/@<handle>/post/<code>, as served to a logged-out
// reader, read for its post's counts (docs/platforms.md#threads).
import Type, { type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { scriptTexts } from '../upstream.js';

const count = Type.Optional(Type.Integer({ minimum: 0 }));
const pagePostSchema = Type.Object({
  code: Type.String(),
  like_count: count,
  user: Type.Optional(Type.Object({ username: Type.String() })),
  text_post_app_info: Type.Optional(Type.Object({ repost_count: count, direct_reply_count: count })),
});
const pagePost = Compile(pagePostSchema);
export type PagePost = Static<typeof pagePostSchema>;

/** How deep the page's JSON is searched; the post sits about a dozen levels down. */
const maxDepth = 40;

function find(value: unknown, code: string, depth: number): PagePost | undefined {
  if (depth > maxDepth || typeof value !== 'object' || value === null) return undefined;
  if (pagePost.Check(value) && value.code === code) return value;
  for (const child of Object.values(value)) {
    const post = find(child, code, depth + 1);
    if (post) return post;
  }
  return undefined;
}

/**
 * The post of `code` in a public post page, or undefined when the page does not carry it. The
 * page's data rides in `<script type="application/json" data-sjs>` blocks, which nest the post
 * at no fixed depth, so the post is found by its code.
 */
export function postOnPage(html: string, code: string): PagePost | undefined {
  for (const text of scriptTexts(html, 'type="application/json"')) {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      continue;
    }
    const post = find(data, code, 0);
    if (post) return post;
  }
  return undefined;
}
