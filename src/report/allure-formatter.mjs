// Cucumber imports a formatter by its address, and a `format` entry is a string: the Allure results folder and
// the format travel in this module's URL query (?results=...&format=json). The formatter itself is TypeScript
// (allure-formatter.ts), loaded through the ts-node require hook that bin/cardspec.js and scripts/test.js install.
import { createRequire } from 'node:module';

const params = new URL(import.meta.url).searchParams;
const require = createRequire(import.meta.url);
const { allureFormatterFor } = require('./allure-formatter');

export default allureFormatterFor(params.get('results'), params.get('format'));
