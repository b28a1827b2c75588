import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { fakeDiagnostic } from './fake-diagnostic.js';
import { escapeData, escapeProperty, GITHUB_ANNOTATION_LIMIT, renderGithub, renderGithubSummary } from '../../src/diagnostics/render/index.js';
import { escapeMarkdown, githubCommand } from '../../src/diagnostics/render/github.js';
import { writeStepSummary } from '../../src/diagnostics/render/step-summary.js';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Decoding as the Actions runner does: the inverse of the escapes. */
const unescape = (s: string) => s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');

describe('github escaping', () => {
  it('escapes data: % CR LF (and nothing else)', () => {
    expect(escapeData('100% done\r\nnext: a,b')).toBe('100%25 done%0D%0Anext: a,b');
  });

  it('escapes properties: % CR LF : ,', () => {
    expect(escapeProperty('a:b,c%d\ne\r')).toBe('a%3Ab%2Cc%25d%0Ae%0D');
  });

  it('escapes % first, so an existing escape sequence survives a round trip', () => {
    for (const s of ['%0A', '%25', 'a%3Ab', '%%', ':,:,']) {
      expect(unescape(escapeProperty(s))).toBe(s);
      expect(unescape(escapeData(s))).toBe(s);
    }
  });

  it('keeps every command on one line whatever the message, file and hint hold', () => {
    const d: Diagnostic = {
      ...fakeDiagnostic({ rule: 'yaml-syntax', text: 'bad\n::error::injected\r\n50% off, a:b' }),
      file: 'cards/we,ird:name.yaml',
      range: { start: { line: 3, column: 1 }, end: { line: 4, column: 2 } },
      hint: 'line one\nline two',
    };
    const cmd = githubCommand(d, {});
    expect(cmd.split('\n')).toHaveLength(1);
    expect(cmd).toBe(
      '::error file=cards/we%2Cird%3Aname.yaml,line=3,col=1,endLine=4,endColumn=2,title=AGC1001 yaml-syntax::' +
        'bad%0A::error::injected%0D%0A50%25 off, a:b%0Aline one%0Aline two',
    );
  });

  it('emits warning commands and omits positions it does not have', () => {
    const d = fakeDiagnostic({ rule: 'unused-model', data: { name: 'm' }, file: 'agentc.config.ts' });
    expect(githubCommand(d, {})).toBe('::warning file=agentc.config.ts,title=AGC7003 unused-model::Model "m" is not used by any card.');
    const unfiled = fakeDiagnostic({ rule: 'config-load', text: 'x' });
    expect(githubCommand(unfiled, {})).toBe('::error title=AGC1006 config-load::x');
  });

  it('prints paths relative to the directory agentc ran from', () => {
    const d = fakeDiagnostic({ rule: 'unused-model', data: { name: 'm' }, file: 'cards/a.yaml' });
    expect(githubCommand(d, { cwd: '/repo', root: '/repo/agents' })).toContain('file=agents/cards/a.yaml,');
  });

  it('adds a notice when GitHub would drop annotations', () => {
    const many = Array.from({ length: GITHUB_ANNOTATION_LIMIT + 1 }, (_, i) =>
      fakeDiagnostic({ rule: 'unused-tool', data: { name: `t${i}` }, file: `schemas/tools/t${i}.yaml` }),
    );
    const out = renderGithub(many, {});
    expect(out).toMatch(/^::notice title=agentc::GitHub shows at most 10 error and 10 warning annotations per step; all 11 diagnostics/m);
    expect(renderGithub(many.slice(0, GITHUB_ANNOTATION_LIMIT), {})).not.toContain('::notice');
  });
});

describe('github job summary', () => {
  it('escapes Markdown and HTML in cells and keeps rows on one line', () => {
    expect(escapeMarkdown('a|b <script> *x* `c`\nnext')).toBe('a\\|b \\<script\\> \\*x\\* \\`c\\`<br>next');
    const d = fakeDiagnostic({ rule: 'schema', text: 'pipe | and\nnewline', file: 'cards/a|b.yaml' });
    const md = renderGithubSummary([d], { title: 'agentc check' });
    const rows = md.split('\n').filter((l) => l.startsWith('| :'));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toBe('| :x: error | cards/a\\|b.yaml | `AGC1003` schema | pipe \\| and<br>newline |');
    expect(md.startsWith('### agentc check\n')).toBe(true);
  });

  it('says so on a clean run', () => {
    expect(renderGithubSummary([], {})).toBe('### agentc\n\n:white_check_mark: No problems found.\n');
  });

  it('lists every diagnostic, beyond the annotation limit', () => {
    const many = Array.from({ length: 25 }, (_, i) => fakeDiagnostic({ rule: 'unused-block', data: { name: `b${i}` }, file: `blocks/b${i}.md` }));
    expect(
      renderGithubSummary(many, {})
        .split('\n')
        .filter((l) => l.startsWith('| :warning:')),
    ).toHaveLength(25);
  });
});

describe('writeStepSummary', () => {
  it('appends to $GITHUB_STEP_SUMMARY and does nothing without it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentc-summary-'));
    const path = join(dir, 'summary.md');
    writeFileSync(path, 'before\n');
    expect(writeStepSummary('# hi', { GITHUB_STEP_SUMMARY: path })).toEqual({ written: true, path });
    expect(readFileSync(path, 'utf8')).toBe('before\n# hi\n');
    expect(writeStepSummary('# hi', {})).toEqual({ written: false });
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports an unwritable path instead of throwing', () => {
    const result = writeStepSummary('x', { GITHUB_STEP_SUMMARY: join(tmpdir(), 'no-such-dir-agentc', 'x', 'summary.md') });
    expect(result.written).toBe(false);
    expect(result.written === false && result.error).toMatch(/could not write the job summary/);
  });
});
