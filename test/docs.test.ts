import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const docs = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const read = (file: string) => readFileSync(join(root, file), 'utf8');

/** The text outside fenced code blocks and inline code, where links and headings are real. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const withoutFences = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const [, text] of withoutFences.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const plain = text!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').toLowerCase();
    const base = plain.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Every relative link of a Markdown file that points at no file, or at no heading of one. */
export function brokenLinks(file: string, markdown: string, readFile: (path: string) => string | undefined): string[] {
  const broken: string[] = [];
  for (const [, target] of prose(markdown).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue; // http:, https:, mailto: … are not ours to check
    const [path = '', anchor] = target!.split('#');
    const resolved = path ? join(dirname(file), decodeURI(path)) : file;
    const text = readFile(resolved);
    if (text === undefined) {
      broken.push(`${file}: ${target} (no file ${resolved})`);
    } else if (anchor && resolved.endsWith('.md') && !anchors(text).has(decodeURIComponent(anchor).toLowerCase())) {
      broken.push(`${file}: ${target} (no heading #${anchor} in ${resolved})`);
    }
  }
  return broken;
}

const fromDisk = (path: string): string | undefined => {
  const full = join(root, path);
  if (!existsSync(full)) return undefined;
  return statSync(full).isDirectory() ? '' : readFileSync(full, 'utf8');
};

describe('documentation', () => {
  it('keeps the README a front door of at most 200 lines', () => {
    const lines = read('README.md').split('\n');
    if (lines.at(-1) === '') lines.pop();
    expect(lines.length).toBeLessThanOrEqual(200);
    expect(read('README.md')).toContain('npm install && npm start');
    expect(read('README.md')).toContain('npm test');
  });

  it('finds the broken links of a document that has them', () => {
    const files: Record<string, string> = { 'docs/a.md': '# A\n\n## Two words\n', 'docs/b.md': '' };
    const markdown = [
      '[fine](a.md#two-words) [fine too](b.md) [external](https://example.com/x.md)',
      '[missing file](c.md) [missing heading](a.md#three-words) [own missing](#nowhere)',
      '`[in code](d.md)`',
      '```',
      '[in a fence](e.md)',
      '```',
    ].join('\n');
    expect(brokenLinks('docs/b.md', markdown, (p) => files[p])).toEqual([
      'docs/b.md: c.md (no file docs/c.md)',
      'docs/b.md: a.md#three-words (no heading #three-words in docs/a.md)',
      'docs/b.md: #nowhere (no heading #nowhere in docs/b.md)',
    ]);
  });

  it('names headings as GitHub anchors them', () => {
    expect(anchors('# Try it\n## REST: `GET|POST /api/v1/<operation>`\n## Try it\n### The plan, number and spending limit')).toEqual(
      new Set(['try-it', 'rest-getpost-apiv1operation', 'try-it-1', 'the-plan-number-and-spending-limit']),
    );
  });

  it.each(docs)('%s links only to files and headings that exist', (file) => {
    expect(brokenLinks(file, read(file), fromDisk)).toEqual([]);
  });

  it('lists every package of package.json in docs/dependencies.md', () => {
    const pkg = JSON.parse(read('package.json')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    const listed = new Set(
      read('docs/dependencies.md')
        .split('\n')
        .filter((line) => line.startsWith('| ') && !line.startsWith('| package'))
        .flatMap((line) => line.split('|')[1]!.split(',').map((name) => name.trim())),
    );
    const missing = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)].filter((name) => !listed.has(name));
    expect(missing, 'packages without a row in docs/dependencies.md').toEqual([]);
  });

  it('describes every environment variable src/config.ts reads in docs/configuration.md', () => {
    const names = new Set([...read('src/config.ts').matchAll(/\benv\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]!));
    expect(names.size).toBeGreaterThan(20);
    const described = read('docs/configuration.md');
    expect([...names].filter((name) => !described.includes(`\`${name}`)), relative(root, 'docs/configuration.md')).toEqual([]);
  });
});
