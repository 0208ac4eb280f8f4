import * as fs from 'node:fs';
import { redactText } from './src/redact';
const t = fs.readFileSync(process.argv[2], 'utf8');
const out = redactText(t);
let i = 0; while (i < t.length && t[i] === out[i]) i++;
console.log(i, t.length);
if (i < t.length) { console.log(JSON.stringify(t.slice(i - 300, i + 40))); }
