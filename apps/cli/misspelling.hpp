// misspelling: the "did you mean" message for a mistyped command or flag, for both programs'
// command lines (CLI11 only says the word was not expected).
//
//   catch (const CLI::ParseError& e) { if (auto typo = misspelling(app, args); !typo.empty()) ... }
#pragma once

#include <CLI/CLI.hpp>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "common/closest_match.hpp"

namespace tinkertoy::cli {

// For a misspelt command or flag in `args`: "error: ... did you mean ...?", naming the first
// word that is neither; "" when every word is known (a parse error of another kind).
inline std::string misspelling(const CLI::App& app, const std::vector<std::string>& args) {
  const auto suggest = [](const std::string& word, const std::vector<std::string>& known) {
    const std::vector<std::string_view> views(known.begin(), known.end());
    const std::optional<std::string_view> match = closestMatch(word, views);
    return match ? "; did you mean " + std::string(*match) + "?" : std::string();
  };
  const CLI::App* command = nullptr;
  // A program with commands takes its first word that is not a flag as one.
  for (const std::string& arg : app.get_subcommands({}).empty() ? std::vector<std::string>{} : args) {
    if (!arg.empty() && arg[0] == '-') continue;
    std::vector<std::string> names;
    for (const CLI::App* sub : app.get_subcommands({})) {
      names.push_back(sub->get_name());
      if (sub->get_name() == arg) command = sub;
    }
    if (!command) return "error: '" + arg + "' is not a command" + suggest(arg, names);
    break;
  }
  const CLI::App& scope = command ? *command : app;
  std::vector<std::string> flags, takingValues;
  for (const CLI::Option* option : scope.get_options()) {
    for (const std::string& name : option->get_lnames()) {
      flags.push_back("--" + name);
      if (option->get_items_expected_max() > 0) takingValues.push_back(flags.back());
    }
  }
  const auto known = [](const std::vector<std::string>& names, const std::string& flag) {
    return std::find(names.begin(), names.end(), flag) != names.end();
  };
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    // The value of a flag may itself read like flags (compare --b "--dt 0.01").
    if (i > 0 && known(takingValues, args[i - 1])) continue;
    if (arg.size() < 3 || arg.compare(0, 2, "--") != 0) continue;
    const std::string flag = arg.substr(0, arg.find('='));
    if (known(flags, flag)) continue;
    const std::string where = command ? " of " + app.get_name() + " " + command->get_name() : "";
    return "error: " + flag + " is not a flag" + where + suggest(flag, flags);
  }
  return {};
}

}  // namespace tinkertoy::cli
