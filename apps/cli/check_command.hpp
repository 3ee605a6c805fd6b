// `tinkertoy check`: validate a scene and audit every constraint's derivatives.
#pragma once

#include <ostream>
#include <string>

namespace tinkertoy::cli {

int checkScene(const std::string& scene, std::ostream& out, std::ostream& err);

}  // namespace tinkertoy::cli
