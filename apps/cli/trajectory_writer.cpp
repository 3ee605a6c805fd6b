#include "trajectory_writer.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace tinkertoy::cli {

namespace {

constexpr const char* kAxes[] = {"x", "y", "z"};

std::string columnName(const Model& model, std::size_t index) {
  const std::string& name = model.name(model.bodyAt(index));
  if (!name.empty()) return name;
  std::string fallback = "b";  // built in two steps: GCC 12 warns falsely on "b" + to_string()
  fallback += std::to_string(index);
  return fallback;
}

void writeNumbers(std::ofstream& out, const Eigen::VectorXd& x) {
  for (const double value : x) out << ',' << value;
}

}  // namespace

TrajectoryWriter::TrajectoryWriter(const std::filesystem::path& path, const std::string& shownAs, const Model& model)
    : out_(path), name_(shownAs) {
  if (!out_) throw std::runtime_error("cannot write '" + shownAs + "': " + std::strerror(errno));
  const int d = model.dimension();
  out_ << "time";
  for (std::size_t i = 0; i < model.bodyCount(); ++i) {
    const BodyId id = model.bodyAt(i);
    const std::string name = columnName(model, i);
    if (model.isParticle(id)) {
      for (int k = 0; k < d; ++k) out_ << ',' << name << '.' << kAxes[k];
      for (int k = 0; k < d; ++k) out_ << ',' << name << ".v" << kAxes[k];
      continue;
    }
    if (model.body(id).type() == "rigid") {
      out_ << ',' << name << ".x," << name << ".y," << name << ".angle," << name << ".vx," << name << ".vy," << name
           << ".angular_velocity";
      continue;
    }
    const Body& body = model.body(id);
    for (int k = 0; k < body.coordinateCount(); ++k) out_ << ',' << name << ".u" << k;
    for (int k = 0; k < body.coordinateCount(); ++k) out_ << ',' << name << ".u_dot" << k;
    for (int p = 0; p < body.pointCount(); ++p) {
      for (int k = 0; k < d; ++k) out_ << ',' << name << ".p" << p << '.' << kAxes[k];
    }
  }
  out_ << ",kinetic_energy,potential_energy,total_energy,constraint_error,velocity_error,work\n";
  out_.precision(17);
}

void TrajectoryWriter::write(const Model& model, const StepDiagnostics& d, double time, double work) {
  out_ << time;
  for (std::size_t i = 0; i < model.bodyCount(); ++i) {
    const BodyId id = model.bodyAt(i);
    writeNumbers(out_, model.coordinates(id));
    writeNumbers(out_, model.velocities(id));
    if (model.isParticle(id) || model.body(id).type() == "rigid") continue;
    for (int p = 0; p < model.body(id).pointCount(); ++p) writeNumbers(out_, model.position({id, p}));
  }
  out_ << ',' << d.kineticEnergy << ',' << d.potentialEnergy << ',' << d.totalEnergy() << ','
       << d.constraintError << ',' << d.velocityError << ',' << work << '\n';
}

std::string TrajectoryWriter::finish() {
  errno = 0;
  out_.close();
  if (out_) return {};
  std::string reason = errno != 0 ? std::strerror(errno) : "the write failed";
  return "cannot write '" + name_ + "': " + reason;
}

}  // namespace tinkertoy::cli
