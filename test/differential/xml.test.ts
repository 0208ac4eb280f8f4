/** The differential property (test/differential/property.ts) over the XML envelope (requestblock 3.67). */
import { test } from 'node:test';
import { differential, RUNS } from './property';

test(`XML: gateway, validate and contract name the same fields over ${RUNS} generated requests`, () => differential('xml'));
