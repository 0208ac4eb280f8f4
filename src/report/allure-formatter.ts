/**
 * The Allure formatter cucumber runs: allure-cucumberjs's reporter, given cardspec's options (results folder,
 * masking writer, label listener) for one format's run. Cucumber's `format` option is a string and its
 * `formatOptions` are shared by every formatter of a run, so the folder and the format reach this class through
 * the module address (allure-formatter.mjs reads them from its URL and calls `allureFormatterFor`).
 */
import * as path from 'node:path';
import type { IFormatterOptions } from '@cucumber/cucumber';
import type AllureCucumberReporterType from 'allure-cucumberjs/dist/types/reporter';
import type { Format } from '../wire/types';
import { redactText } from '../redact';
import { allureOptions, type AllureRunCounter } from './allure';

// The package's `exports` map ('allure-cucumberjs/reporter') is what Node resolves; the type comes by path
// because the project's `moduleResolution: node` does not read `exports`.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const AllureCucumberReporter = require('allure-cucumberjs/reporter') as typeof AllureCucumberReporterType;

export const FORMATS: readonly Format[] = ['json', 'xml'];

export function allureFormatterFor(resultsDir: string | null, format: string | null): typeof AllureCucumberReporterType {
  if (!resultsDir) throw new Error('cardspec Allure formatter: no results folder in its address (?results=...)');
  if (!FORMATS.includes(format as Format)) throw new Error(redactText(`cardspec Allure formatter: format must be json or xml, not '${format ?? ''}'`));
  const fmt = format as Format;
  const dir: string = resultsDir;
  return class CardspecAllureFormatter extends AllureCucumberReporter {
    private readonly counter: AllureRunCounter;
    private readonly writeLog: (text: string) => void;

    constructor(options: IFormatterOptions) {
      const counter: AllureRunCounter = { written: 0 };
      super({ ...options, parsedArgvOptions: { ...options.parsedArgvOptions, ...allureOptions(dir, fmt, counter) } });
      this.counter = counter;
      this.writeLog = (text) => options.log(redactText(text));
    }

    override async finished(): Promise<void> {
      // The folder by its name, not the machine's path: this log is a report file too.
      this.writeLog(`allure-cucumberjs (${fmt}): ${this.counter.written} test result(s) written to ${path.basename(dir)}\n`);
      await super.finished();
    }
  };
}
