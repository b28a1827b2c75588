import { expect, test } from 'vitest';
import { isWindowsReservedName } from '../../src/bundle/file-names.js';

test('Windows device names are reserved in any case and with any extension; nothing else is', () => {
  const reserved = ['con', 'CON', 'con.md', 'Com1.v2.yaml', 'nul', 'NUL ', 'lpt9.x', 'aux', 'Aux.json', 'prn.md', 'pRn', 'LPT1', 'con   .md', 'com1    '];
  const free = ['lpt0', 'cons', 'acon', 'x', 'com10', 'connect.md', 'null', 'printer', '', ' con', 'zeta.md', 'lpt12.md', 'conso', 'aux_1.md'];
  expect(reserved.filter((n) => !isWindowsReservedName(n))).toEqual([]);
  expect(free.filter((n) => isWindowsReservedName(n))).toEqual([]);
});
