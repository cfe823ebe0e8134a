// Stands in for `moment-timezone` (its index: the library and every zone's history, ≈716 KiB of JSON bundled as an
// object literal) in the deployed bundle (wrangler.toml [alias]). date-holidays converts equinox-based and
// zone-bound holidays with it. The library is the same; the zones ship as a Text module (wrangler.toml [[rules]])
// parsed on date-holidays' first import, so startup no longer parses them as script.
import moment from "moment-timezone/moment-timezone.js";
import packedZones from "../../node_modules/moment-timezone/data/packed/latest.json";

// TypeScript types a .json import as its object; wrangler's Text rule makes it the file's text.
moment.tz.load(JSON.parse(packedZones as unknown as string));

export default moment;
