#include "model_contents.hpp"

namespace tinkertoy::cli {

namespace {

std::string counted(std::size_t n, const char* singular, const char* plural) {
  return std::to_string(n) + " " + (n == 1 ? singular : plural);
}

}  // namespace

std::size_t countParticles(const Model& model) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < model.bodyCount(); ++i) n += model.isParticle(model.bodyAt(i)) ? 1 : 0;
  return n;
}

std::string describeContents(const Model& model) {
  const std::size_t particles = countParticles(model);
  std::string text = counted(particles, "particle", "particles") + ", ";
  if (model.bodyCount() > particles) text += counted(model.bodyCount() - particles, "body", "bodies") + ", ";
  return text + counted(model.constraintCount(), "constraint", "constraints");
}

}  // namespace tinkertoy::cli
