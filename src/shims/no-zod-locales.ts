// Stands in for zod's `locales` namespace in the deployed bundle (wrangler.toml [alias]): ~260 KiB of error messages
// in 40+ languages that nothing here uses. English, the only locale we answer in, is imported by zod separately.
export {};
