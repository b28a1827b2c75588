/** One number format everywhere people read numbers: "8,000" (diagnostics, diff reports, summaries, token tables). */
import { describe, expect, it } from 'vitest';
import { fillTemplate as formatMessage } from '../../src/diagnostics/template.js';
import { formatInt } from '../../src/diagnostics/format-number.js';
import { plural } from '../../src/diagnostics/render/common.js';
import { display, formatChangeMessage } from '../../src/diff/changes.js';
import { signed } from '../../src/diff/prompts.js';
import { formatInt as emitFormatInt } from '../../src/emit/format.js';

describe('number format', () => {
  it('groups thousands with commas, locale-independent', () => {
    expect([0, 7, 999, 1000, 8000, 272000, 1047576, -12345].map(formatInt)).toEqual(['0', '7', '999', '1,000', '8,000', '272,000', '1,047,576', '-12,345']);
    expect(formatInt(0.25)).toBe('0.25');
    expect(emitFormatInt).toBe(formatInt);
  });

  it('is used by diagnostic messages, diff messages, values, deltas and counts', () => {
    expect(formatMessage('{tokens} tokens of a {window}-token window ({card})', { tokens: 8000, window: 1047576, card: 'x' })).toBe(
      '8,000 tokens of a 1,047,576-token window (x)',
    );
    expect(formatChangeMessage('from {before} to {after}', { before: 1000, after: 'two' })).toBe('from 1,000 to two');
    expect(display(6000)).toBe('6,000');
    expect(signed(1200)).toBe('+1,200');
    expect(signed(-1200)).toBe('−1,200');
    expect(plural(1500, 'file')).toBe('1,500 files');
  });
});
