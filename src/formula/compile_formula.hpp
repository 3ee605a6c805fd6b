// The parser behind Formula (include/tinkertoy/formula/formula.hpp): text → postfix program.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tinkertoy/formula/formula.hpp"

namespace tinkertoy::detail {

// The program of `text`, its constant subexpressions folded. Throws FormulaError.
std::vector<Formula::Instruction> compileFormula(std::string_view text, std::span<const std::string> variables,
                                                 const FormulaParameters& parameters);

}  // namespace tinkertoy::detail
