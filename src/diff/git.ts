/**
 * The git side of `agentc diff`: find the repository, resolve the "before" ref
 * (default: the merge base of HEAD with the default branch) and write the
 * workspace's tree at that commit into a directory, using only git plumbing
 * (`ls-tree`, `cat-file --batch`) — no tar, no checkout, the work tree and the
 * index are never touched.
 *
 * Invariants: nothing here throws for a user problem (missing git, unknown ref,
 * no repository): results carry a message instead; files are only ever written
 * inside the destination directory.
 */
import { spawn } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';

export interface GitRun {
  code: number;
  stdout: Buffer;
  stderr: string;
  /** Set when git could not be started at all (not installed). */
  spawnError?: string;
}

export function runGit(cwd: string, args: string[], input?: string): Promise<GitRun> {
  return new Promise((done) => {
    const child = spawn('git', ['-C', cwd, ...args], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' } });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e) => done({ code: -1, stdout: Buffer.alloc(0), stderr: '', spawnError: e.message }));
    child.on('close', (code) => done({ code: code ?? -1, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') }));
    child.stdin.on('error', () => undefined);
    child.stdin.end(input ?? '');
  });
}

async function gitText(cwd: string, args: string[]): Promise<string | undefined> {
  const r = await runGit(cwd, args);
  return r.code === 0 ? r.stdout.toString('utf8').trim() : undefined;
}

export interface Repo {
  /** Absolute path of the repository's top-level directory. */
  top: string;
  /** The workspace's path inside the repository, '' or ending in '/'. */
  prefix: string;
}

/** The repository containing `cwd`, or a message why there is none. */
export async function findRepo(cwd: string): Promise<{ repo: Repo } | { error: string }> {
  const r = await runGit(cwd, ['rev-parse', '--show-toplevel', '--show-prefix']);
  if (r.spawnError) return { error: `git is not available (${r.spawnError})` };
  if (r.code !== 0) return { error: `${cwd} is not inside a git repository` };
  const [top = '', prefix = ''] = r.stdout.toString('utf8').split('\n');
  return { repo: { top, prefix } };
}

/** The full commit id `ref` names, or undefined. */
export function resolveCommit(cwd: string, ref: string): Promise<string | undefined> {
  if (ref.startsWith('-')) return Promise.resolve(undefined);
  return gitText(cwd, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
}

/** Branch, remote-branch and tag names (for did-you-mean on an unknown ref). */
export async function refNames(cwd: string): Promise<string[]> {
  const text = await gitText(cwd, ['for-each-ref', '--format=%(refname:short)', 'refs/heads', 'refs/remotes', 'refs/tags']);
  return text ? text.split('\n').filter((n) => n !== '' && !n.endsWith('/HEAD')) : [];
}

export interface BaseRef {
  commit: string;
  /** For reports: "merge base 1a2b3c4 of origin/main", "HEAD (main)". */
  label: string;
}

/**
 * The default "before" commit. The default branch is `origin/$GITHUB_BASE_REF` in
 * pull-request CI (that one only); otherwise the branch origin/HEAD points at, then
 * main, then master (local branch first, then origin's). When HEAD is that branch, the answer is HEAD itself
 * (committed state vs working tree); otherwise the merge base of HEAD with it. With no
 * default branch at all, HEAD.
 */
export async function defaultBase(cwd: string, env: Record<string, string | undefined>): Promise<BaseRef | { error: string }> {
  const head = await resolveCommit(cwd, 'HEAD');
  if (head === undefined) return { error: 'the repository has no commits yet (HEAD does not name a commit); pass --against DIR.' };
  const current = await gitText(cwd, ['symbolic-ref', '--quiet', '--short', 'HEAD']);

  const candidates: Array<{ branch: string; ref: string }> = [];
  const baseRef = env.GITHUB_BASE_REF;
  if (baseRef) candidates.push({ branch: baseRef, ref: `refs/remotes/origin/${baseRef}` }, { branch: baseRef, ref: `refs/heads/${baseRef}` });
  // A pull request names its base: never guess another branch then.
  const originHead = baseRef ? undefined : await gitText(cwd, ['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD']);
  if (originHead?.startsWith('refs/remotes/origin/')) {
    candidates.push({ branch: originHead.slice('refs/remotes/origin/'.length), ref: originHead });
  }
  for (const branch of baseRef ? [] : ['main', 'master']) {
    candidates.push({ branch, ref: `refs/heads/${branch}` }, { branch, ref: `refs/remotes/origin/${branch}` });
  }

  const shallow = (await gitText(cwd, ['rev-parse', '--is-shallow-repository'])) === 'true';
  const fullHistory = shallow ? ' This is a shallow clone: fetch the full history (actions/checkout: fetch-depth: 0).' : '';
  for (const { branch, ref } of candidates) {
    const commit = await resolveCommit(cwd, ref);
    if (commit === undefined) continue;
    const name = ref.replace(/^refs\/(heads|remotes)\//, '');
    if (current === branch) return { commit: head, label: `HEAD (${current})` };
    const base = await gitText(cwd, ['merge-base', head, commit]);
    if (base === undefined) return { error: `HEAD and ${name} have no common ancestor; pass --against REF.${fullHistory}` };
    return { commit: base, label: `merge base ${base.slice(0, 7)} of ${name}` };
  }
  // In pull-request CI, silently comparing HEAD with itself would hide every change.
  if (baseRef) return { error: `the pull request's base branch origin/${baseRef} is not in this clone; pass --against REF.${fullHistory}` };
  return { commit: head, label: 'HEAD (no main, master or origin/HEAD branch found)' };
}

/** Workspace paths never needed to compile it. */
const SKIPPED = [/^generated\//, /(^|\/)node_modules\//, /(^|\/)\.git\//];

export interface Materialized {
  /** False when the workspace directory does not exist at that commit. */
  exists: boolean;
  files: number;
}

/**
 * Write the tree of `commit` at the workspace `prefix` into `dest` (an existing,
 * empty directory). Submodules are skipped; symlinks are recreated when the
 * platform allows.
 */
export async function materializeTree(cwd: string, commit: string, prefix: string, dest: string): Promise<Materialized | { error: string }> {
  const treeish = `${commit}:${prefix.replace(/\/$/, '')}`;
  const type = await gitText(cwd, ['cat-file', '-t', treeish]);
  if (type !== 'tree') return { exists: false, files: 0 };
  const listing = await runGit(cwd, ['ls-tree', '-r', '-z', '--full-tree', treeish]);
  if (listing.code !== 0) return { error: `git ls-tree failed: ${listing.stderr.trim()}` };

  const entries: Array<{ mode: string; sha: string; path: string }> = [];
  for (const record of listing.stdout.toString('utf8').split('\0')) {
    if (record === '') continue;
    const tab = record.indexOf('\t');
    const [mode = '', kind = '', sha = ''] = record.slice(0, tab).split(' ');
    // --full-tree: paths relative to the tree named (the workspace), whatever git's cwd.
    const path = record.slice(tab + 1);
    if (kind !== 'blob' || SKIPPED.some((re) => re.test(path))) continue;
    entries.push({ mode, sha, path });
  }
  if (entries.length === 0) return { exists: true, files: 0 };

  const batch = await runGit(cwd, ['cat-file', '--batch'], entries.map((e) => `${e.sha}\n`).join(''));
  if (batch.code !== 0) return { error: `git cat-file failed: ${batch.stderr.trim()}` };
  const contents = parseBatch(batch.stdout);
  if (contents.length !== entries.length) return { error: 'git cat-file returned an unexpected number of objects' };

  const root = resolve(dest);
  let files = 0;
  for (let i = 0; i < entries.length; i++) {
    const { mode, path } = entries[i]!;
    const target = resolve(root, path);
    const rel = relative(root, target);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) continue; // never write outside dest
    await mkdir(dirname(target), { recursive: true });
    if (mode === '120000') {
      await symlink(contents[i]!.toString('utf8'), target).catch(() => undefined);
    } else {
      await writeFile(target, contents[i]!);
      files++;
    }
  }
  return { exists: true, files };
}

/** `<sha> <type> <size>\n<content>\n` records, in order. */
function parseBatch(out: Buffer): Buffer[] {
  const contents: Buffer[] = [];
  let pos = 0;
  while (pos < out.length) {
    const nl = out.indexOf(0x0a, pos);
    if (nl < 0) break;
    const header = out.subarray(pos, nl).toString('utf8').split(' ');
    if (header[1] === 'missing' || header.length < 3) break;
    const size = Number(header[2]);
    contents.push(out.subarray(nl + 1, nl + 1 + size));
    pos = nl + 1 + size + 1;
  }
  return contents;
}

/** Where to put a materialized tree: under the nearest node_modules/.cache (so the
 * config's own imports resolve as they do in the workspace), else the OS temp dir. */
export function tempParent(start: string, exists: (p: string) => boolean, osTmp: string): string {
  let dir = resolve(start);
  for (;;) {
    if (exists(join(dir, 'node_modules'))) return join(dir, 'node_modules', '.cache', 'agentc-diff');
    const up = dirname(dir);
    if (up === dir) return osTmp;
    dir = up;
  }
}
