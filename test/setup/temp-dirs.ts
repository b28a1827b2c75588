/** Runs before every test file (vitest setupFiles): what tempDir() made is removed after the file. */
import { afterAll } from 'vitest';
import { removeTempDirs } from '../helpers/temp-dirs.js';

afterAll(removeTempDirs);
