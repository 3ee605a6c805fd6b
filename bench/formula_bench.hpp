// What a formula costs (docs/formula.md, bench/RESULTS.md): the rod |x_a − x_b| − L written as a
// formula, evaluated for its value alone and with every derivative by Jets; the same constraint's
// evaluate() as a FormulaConstraint and as the hand-written DistanceConstraint; and J, Ċ and J̇
// by central differences of the formula's value instead, as an engine without AD would get them.
#pragma once

namespace tinkertoy::bench {

void registerFormulas();

}  // namespace tinkertoy::bench
