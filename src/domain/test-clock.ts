/** The furthest one advance moves a sandbox's clock: each advance runs the sandbox's time-driven passes before answering. */
export const MAX_ADVANCE_DAYS = 90;
