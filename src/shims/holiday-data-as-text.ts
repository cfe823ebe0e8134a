// Stands in for date-holidays' `./data.js` (every country's rules as one ≈437 KiB object literal) in the deployed
// bundle (wrangler.toml [alias]): the same rules, shipped as a Text module (wrangler.toml [[rules]]) and parsed when
// date-holidays is first imported. A Text module is a string to the isolate, so startup no longer parses it as script.
// date-holidays' package.json exports no path to its JSON, hence the relative path; `data/holidays.json` is the
// file its `src/data.js` is generated from (test/node/holiday-data-bundle.test.ts compares the answers with the library's).
import holidaysJson from "../../node_modules/date-holidays/data/holidays.json";

// TypeScript types a .json import as its object; wrangler's Text rule makes it the file's text.
export const data = JSON.parse(holidaysJson as unknown as string);
