/**
 * The path the stand-in gateway serves its report at, alone in a module so that `cardspec serve --help`, which
 * names it, loads none of the gateway.
 */

/** Where the report is served; under the control API's prefix, but served whether or not `--control` is on. */
export const REPORT_PATH = '/_cardspec/contract';
