#include "trajectory_writer.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <variant>

#include "csv.hpp"

namespace tinkertoy::cli {

namespace {

constexpr const char* kAxes[] = {"x", "y", "z"};

// "<prefix><n>", built in steps: GCC 12 warns falsely on a literal + to_string().
std::string numbered(const char* prefix, int n) {
  std::string text = prefix;
  text += std::to_string(n);
  return text;
}

std::string columnName(const Model& model, std::size_t index) {
  const std::string& name = model.name(model.bodyAt(index));
  if (!name.empty()) return name;
  return numbered("b", static_cast<int>(index));
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
    // "<id>.<what>", quoted if the id holds a comma, a quote or a line break (csv.hpp).
    const auto column = [&](const std::string& what) { out_ << ',' << csvField(name + "." + what); };
    if (model.isParticle(id)) {
      posed_.push_back(true);
      for (int k = 0; k < d; ++k) column(kAxes[k]);
      for (int k = 0; k < d; ++k) column(std::string("v") + kAxes[k]);
      continue;
    }
    posed_.push_back(std::holds_alternative<RigidBodySettings>(model.body(id).settings()));
    if (posed_.back()) {  // a rigid body's (x, y, θ)
      for (const char* what : {"x", "y", "angle", "vx", "vy", "angular_velocity"}) column(what);
      continue;
    }
    const Body& body = model.body(id);
    for (int k = 0; k < body.coordinateCount(); ++k) column(numbered("u", k));
    for (int k = 0; k < body.coordinateCount(); ++k) column(numbered("u_dot", k));
    for (int p = 0; p < body.pointCount(); ++p) {
      for (int k = 0; k < d; ++k) column(numbered("p", p).append(".").append(kAxes[k]));
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
    if (posed_[i]) continue;
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
