/**
 * Links into the documentation resolve: every relative link in docs/**, README.md
 * and ARCHITECTURE.md, and every `docs/….md#anchor` a code comment in src/ or
 * test/ cites, names a file that exists and, with an anchor, a heading in it
 * (GitHub's heading slugs).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../robustness/workspace.js';

function files(dir: string, ext: RegExp): string[] {
  return readdirSync(join(REPO, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && ext.test(e.name))
    .map((e) => relative(REPO, join(e.parentPath, e.name)).split('\\').join('/'));
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces → '-'. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(file: string): Set<string> {
  const text = readFileSync(join(REPO, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of text.matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

function problem(from: string, target: string, base: string): string | undefined {
  const [path, anchor] = target.split('#') as [string, string | undefined];
  const file =
    path === ''
      ? from
      : relative(REPO, resolve(REPO, base, path))
          .split('\\')
          .join('/');
  if (!existsSync(join(REPO, file))) return `${from}: ${target} — no such file`;
  if (anchor !== undefined && anchor !== '' && file.endsWith('.md') && !anchors(file).has(anchor))
    return `${from}: ${target} — no heading #${anchor} in ${file}`;
  return undefined;
}

describe('documentation links', () => {
  it('markdown links between pages resolve', () => {
    const pages = [...files('docs', /\.md$/), 'README.md', 'ARCHITECTURE.md'];
    const bad: string[] = [];
    for (const page of pages) {
      const text = readFileSync(join(REPO, page), 'utf8').replace(/```[\s\S]*?```/g, '');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1]!;
        if (/^[a-z]+:/.test(target)) continue;
        const p = problem(page, target, dirname(page));
        if (p) bad.push(p);
      }
    }
    expect(bad).toEqual([]);
  });

  it('docs/ pages cited by code comments exist, with their anchors', () => {
    const sources = [...files('src', /\.ts$/), ...files('test', /\.ts$/)];
    const bad: string[] = [];
    let cited = 0;
    for (const file of sources) {
      for (const m of readFileSync(join(REPO, file), 'utf8').matchAll(/\bdocs\/[\w/.-]+\.md(?:#[\w-]+)?/g)) {
        cited++;
        const p = problem(file, m[0], '.');
        if (p) bad.push(p);
      }
    }
    expect(cited).toBeGreaterThan(20);
    expect(bad).toEqual([]);
  });

  it('no comment or page cites a SPEC section outside the repository', () => {
    const texts = [...files('src', /\.ts$/), ...files('test', /\.ts$/), ...files('docs', /\.md$/), 'README.md', 'ARCHITECTURE.md'];
    const bad = texts.filter((f) => /\bSPEC(\.md)? ?§|\bseed \d{3}\b/.test(readFileSync(join(REPO, f), 'utf8')));
    expect(bad.map((f) => `${f} cites SPEC/seed sections: cite the docs/ page instead`)).toEqual([]);
  });

  it('slugs like GitHub', () => {
    expect(slug('`agentc check`')).toBe('agentc-check');
    expect(slug('Envelopes and principals')).toBe('envelopes-and-principals');
    expect(slug('Running: `agentc/runtime` and `agentc run`')).toBe('running-agentcruntime-and-agentc-run');
  });
});
