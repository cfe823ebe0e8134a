// Stands in for "fast-check" in the mutation run only (vitest.mutation.config.ts aliases it here; `npm test` and the
// domain config use the real module). A mutant runs only the tests that cover it, and most die on a property's first
// counterexample: shrinking that counterexample, or 20,000 runs of a property the mutant survives, buys Stryker nothing
// but minutes. Each property keeps its own arbitraries; it runs at most MUTATION_NUM_RUNS times (default 50) and stops
// at its first failure. A seeded property is a fixed table of cases its test may count, so it keeps all its runs.
import fc, { type IRawProperty, type Parameters as RunParameters } from "../../node_modules/fast-check/lib/fast-check.js";

export * from "../../node_modules/fast-check/lib/fast-check.js";

const maxRuns = Number(process.env.MUTATION_NUM_RUNS ?? 50);

function capParameters(parameters: RunParameters<unknown> = {}): RunParameters<unknown> {
  if (parameters.seed !== undefined) return { ...parameters, endOnFailure: true };
  return { ...parameters, numRuns: Math.min(parameters.numRuns ?? maxRuns, maxRuns), endOnFailure: true };
}

export const assert = ((property: IRawProperty<unknown>, parameters?: RunParameters<unknown>) =>
  fc.assert(property, capParameters(parameters))) as typeof fc.assert;
export const check = ((property: IRawProperty<unknown>, parameters?: RunParameters<unknown>) =>
  fc.check(property, capParameters(parameters))) as typeof fc.check;

export default { ...fc, assert, check };
