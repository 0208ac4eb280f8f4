/** The differential property (test/differential/property.ts) over the JSON envelope. */
import { test } from 'node:test';
import { differential, RUNS } from './property';

test(`JSON: gateway, validate and contract name the same fields over ${RUNS} generated requests`, () => differential('json'));
