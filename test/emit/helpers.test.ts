import { describe, expect, it } from 'vitest';
import { createBundle } from '../../src/emit/bundle.js';
import { entryAgent } from '../../src/emit/entry-agent.js';
import { formatInt, formatPercent, formatTable } from '../../src/emit/format.js';
import { nameAllocator, pascalCase } from '../../src/emit/names.js';
import { makeProgram, sampleProgram } from './helpers/program.js';

describe('entryAgent', () => {
  it('is the one root orchestrator', () => {
    expect(entryAgent(createBundle(sampleProgram(), '0'))).toBe('concierge');
  });

  it('is the only root when nothing orchestrates, and undefined when ambiguous', () => {
    const blocks = [{ id: 'persona-base', text: 'Hi.' }];
    expect(entryAgent(createBundle(makeProgram({ blocks, cards: [{ id: 'solo' }] }), '0'))).toBe('solo');
    expect(entryAgent(createBundle(makeProgram({ blocks, cards: [{ id: 'a' }, { id: 'b' }] }), '0'))).toBeUndefined();
    const two = makeProgram({ blocks, cards: [{ id: 'one', sub_agents: ['leaf'] }, { id: 'two', sub_agents: ['leaf'] }, { id: 'leaf' }] });
    expect(entryAgent(createBundle(two, '0'))).toBeUndefined();
  });
});

describe('formatting', () => {
  it('formats numbers without depending on the locale', () => {
    expect(formatInt(0)).toBe('0');
    expect(formatInt(1234567)).toBe('1,234,567');
    expect(formatInt(-1000)).toBe('-1,000');
    expect(formatPercent(1, 8)).toBe('12.5%');
    expect(formatPercent(1, 100_000)).toBe('<0.1%');
    expect(formatPercent(0, 10)).toBe('0.0%');
    expect(formatPercent(1, 0)).toBe('n/a');
    expect(
      formatTable(
        [
          ['a', '1'],
          ['bbb', '22'],
        ],
        new Set([1]),
      ),
    ).toBe('a     1\nbbb  22');
  });

  it('makes unique PascalCase type names', () => {
    expect(pascalCase('get_user_points')).toBe('GetUserPoints');
    expect(pascalCase('3d-view')).toBe('T3dView');
    expect(pascalCase('__')).toBe('Tool');
    const allocate = nameAllocator();
    expect([allocate('GetXArgs'), allocate('GetXArgs'), allocate('ToolHandlers'), allocate('Bundle')]).toEqual([
      'GetXArgs',
      'GetXArgs2',
      'ToolHandlers2',
      'Bundle2',
    ]);
  });
});
