#include "model_contents.hpp"

namespace tinkertoy::cli {

std::string counted(std::uint64_t n, std::string_view singular, std::string_view plural) {
  return std::to_string(n) + " " + std::string(n == 1 ? singular : plural);
}

std::string counted(std::uint64_t n, std::string_view singular) {
  return counted(n, singular, std::string(singular) + "s");
}

std::size_t countParticles(const Model& model) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < model.bodyCount(); ++i) n += model.isParticle(model.bodyAt(i)) ? 1 : 0;
  return n;
}

std::string describeContents(const Model& model) {
  const std::size_t particles = countParticles(model);
  std::string text = counted(particles, "particle") + ", ";
  if (model.bodyCount() > particles) text += counted(model.bodyCount() - particles, "body", "bodies") + ", ";
  return text + counted(model.constraintCount(), "constraint");
}

}  // namespace tinkertoy::cli
