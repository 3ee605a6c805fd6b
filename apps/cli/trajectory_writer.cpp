#include "trajectory_writer.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace tinkertoy::cli {

namespace {

std::string columnName(const Model& model, std::size_t index) {
  const std::string& name = model.name(model.particleAt(index));
  if (!name.empty()) return name;
  std::string fallback = "p";  // built in two steps: GCC 12 warns falsely on "p" + to_string()
  fallback += std::to_string(index);
  return fallback;
}

}  // namespace

TrajectoryWriter::TrajectoryWriter(const std::string& path, const Model& model) : out_(path) {
  if (!out_) throw std::runtime_error("cannot write '" + path + "': " + std::strerror(errno));
  static const char* kAxes[] = {"x", "y", "z"};
  out_ << "time";
  for (std::size_t i = 0; i < model.particleCount(); ++i) {
    const std::string id = columnName(model, i);
    for (int k = 0; k < model.dimension(); ++k) out_ << ',' << id << '.' << kAxes[k];
    for (int k = 0; k < model.dimension(); ++k) out_ << ',' << id << ".v" << kAxes[k];
  }
  out_ << ",kinetic_energy,potential_energy,total_energy,constraint_error,velocity_error\n";
  out_.precision(17);
}

void TrajectoryWriter::write(const Model& model, const StepDiagnostics& d) {
  const int dim = model.dimension();
  out_ << d.time;
  for (std::size_t i = 0; i < model.particleCount(); ++i) {
    const auto offset = static_cast<Eigen::Index>(i) * dim;
    for (int k = 0; k < dim; ++k) out_ << ',' << model.q()[offset + k];
    for (int k = 0; k < dim; ++k) out_ << ',' << model.v()[offset + k];
  }
  out_ << ',' << d.kineticEnergy << ',' << d.potentialEnergy << ',' << d.totalEnergy() << ','
       << d.constraintError << ',' << d.velocityError << '\n';
}

}  // namespace tinkertoy::cli
