// A gtest parameter's name from a label written for people: every character that is not a
// letter or a digit becomes '_' ("zero threads" → "zero_threads").
//
//   INSTANTIATE_TEST_SUITE_P(S, T, ValuesIn(cases), [](const auto& p) { return testing_support::testName(p.param.label); });
#pragma once

#include <cctype>
#include <string>

namespace tinkertoy::testing_support {

inline std::string testName(std::string label) {
  for (char& c : label) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return label;
}

}  // namespace tinkertoy::testing_support
