// moment-timezone's library without its bundled zones (src/shims/moment-timezone-data-as-text.ts): the package types
// only its index.
declare module "moment-timezone/moment-timezone.js" {
  import moment from "moment-timezone";
  export default moment;
}
