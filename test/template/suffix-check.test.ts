/**
 * The config's dynamicContext.template is checked at build time by the same
 * parser and scope checker as blocks (rule suffix-template), at the config's value.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '../../src/compile.js';
import { copyExample, edit, removeTempDirs } from '../robustness/workspace.js';

const CONFIG = 'agentc.config.ts';
const LINE = "    template: '<context>\\nDate: {{date}}\\nLocale: {{locale}}\\nLocation: {{location}}\\n</context>',";

afterAll(removeTempDirs);

async function suffixFindings(template: string, fields?: string) {
  const dir = await copyExample('suffix');
  await edit(dir, CONFIG, (t) => {
    expect(t).toContain(LINE);
    let out = t.replace(LINE, `    template: ${JSON.stringify(template)},`);
    if (fields) out = out.replace("fields: ['date', 'locale', 'location', 'user_id'],", `fields: ${fields},`);
    return out;
  });
  const { diagnostics } = await compile({ root: dir });
  const line =
    (await import('node:fs/promises').then((fs) => fs.readFile(`${dir}/${CONFIG}`, 'utf8'))).split('\n').findIndex((l) => l.startsWith('    template: ')) + 1;
  return {
    line,
    found: diagnostics.filter((d) => d.rule === 'suffix-template').map((d) => ({ file: d.file, line: d.range?.start.line, message: d.message, hint: d.hint })),
    others: diagnostics.filter((d) => d.rule !== 'suffix-template'),
  };
}

describe('suffix-template', () => {
  it('a clean template with blocks is accepted', async () => {
    const r = await suffixFindings(
      '<context>\n{{#if location}}Location: {{location}}\n{{else}}No location.\n{{/if}}{{#unless date}}no date{{/unless}}</context>',
    );
    expect(r.found).toEqual([]);
    expect(r.others).toEqual([]);
  });

  it('a syntax error: the character where the tag goes wrong, in words', async () => {
    const r = await suffixFindings('Loc: {{location}');
    expect(r.found).toEqual([{ file: CONFIG, line: r.line, message: "dynamicContext.template has a template syntax error: unexpected '}'.", hint: undefined }]);
  });

  it('a block never closed', async () => {
    const r = await suffixFindings('{{#if location}}Loc: {{location}}');
    expect(r.found.map((d) => d.message)).toEqual([
      'dynamicContext.template has a template syntax error: "{{#if}}" on line 1 of the template is never closed: add "{{/if}}".',
    ]);
  });

  it('an undeclared field, with a did-you-mean', async () => {
    const r = await suffixFindings('{{locaton}}');
    expect(r.found).toEqual([
      {
        file: CONFIG,
        line: r.line,
        message: 'dynamicContext.template reads "locaton", which is not one of dynamicContext.fields (date, locale, location, user_id).',
        hint: 'Did you mean "location"?',
      },
    ]);
  });

  it('declaring the field makes the same template clean', async () => {
    const r = await suffixFindings('{{tier}}', "['date', 'locale', 'location', 'user_id', 'tier']");
    expect(r.found).toEqual([]);
  });

  it('helpers and constructs outside the language', async () => {
    const r = await suffixFindings('{{upper location}}{{#if true}}x{{/if}}{{> p}}');
    expect(r.found.map((d) => d.message)).toEqual([
      'dynamicContext.template calls helper "upper", which the template language does not have (helpers: each, if, lookup, unless, with).',
      'dynamicContext.template uses a partial or decorator; the template language has none.',
      'dynamicContext.template uses {{#if}} of a literal (it takes a path), which is outside the template language.',
    ]);
  });
});
