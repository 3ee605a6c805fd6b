// MuJoCo 2.2 (Debian libmujoco-dev) in the peer benchmark.
//
// Each model is MJCF text generated here and loaded from MuJoCo's virtual file system (no file
// on disk). MuJoCo's defaults throughout: the Newton solver, 100 iterations, tolerance 1e-8,
// Euler integration, soft constraints with the default solref (0.02 s time constant, damping
// ratio 1) and solimp (0.9 0.95 0.001 0.5 2); only the timestep is the scenario's dt (one
// mj_step a step, no substeps: joint_grid steps 1/60 s) and gravity the scenario's. The soft
// constraints are springs of that time constant, independent of dt: they give way under large
// loads (the tip of chain-100 whipping round stretches its rod 45 %). There are no geoms,
// so no collisions. A particle is a point mass: an inertial of the scenario's mass at the body
// origin with a negligible diagonal inertia (1e-6 kg·m², which MuJoCo needs to be positive).
// Modes:
//   hinge chain  chain-N in reduced coordinates: N nested bodies, each with a hinge about z at
//                the previous mass (the first at the pivot) and its mass at the body origin.
//                The rods cannot stretch, and there is no constraint to solve, but the chain's
//                joint-space mass matrix is dense: factorising it costs O(N³) a step (80 ms at
//                N = 1000, about a minute at 10000), so the mode is offered up to N = 1000. MJCF nests a child body
//                inside its parent's element, and Debian's tinyxml2 9 refuses elements nested
//                more than 100 deep, which in one file allows 96 nested bodies. Past that, the
//                chain is split over several virtual files, 90 bodies each, each file included
//                by the innermost body of the one before (<include> is parsed file by file).
//   tendons      chain-N and cloth-G in maximal coordinates: each particle a body with slide
//                joints along x and y (chain, 2D) or x, y and z (cloth), each rod a spatial
//                tendon between sites at the two particles' centres (or at the pivot, a site of
//                the world) held at its starting length by an equality/tendon constraint. A
//                nailed particle is a body without joints, welded to the world (mass 0 here).
//   connect      joint_grid-N: each dynamic disc a body with slide joints along x and y and a
//                hinge about z, the scenario's mass, and inertia diag(¼ m r², ¼ m r², I); a
//                static disc a body without joints (mass 0 here); each pin an equality/connect
//                constraint at the pin point (a pin between two static discs is left out).
// MuJoCo 2.2 sizes its data for the largest case, in one buffer whose size is an int (so under
// 2 GB): the constraint Jacobian and its transpose dense (rows × degrees of freedom, numbers and
// column indices), the tendon Jacobian likewise (tendons × degrees of freedom) and the dual
// solvers' rows × rows matrix. The tendons and connect modes are offered only where that fits,
// with a tenth to spare: chain-N to N = 4796, cloth-G to G = 52, joint_grid-N to N = 39 (not
// chain-10000, cloth-64 or joint_grid-100, whose models fail to compile: "could not create
// mjData"). The stack must hold the Newton solver's Hessian, its cone copy and their
// column indices uncompressed (3 × degrees of freedom² numbers): it is sized for that here, not
// by MuJoCo's heuristic of 5 (njmax + neq + nv)² numbers (cloth-32: 2 GB).
#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "peer_world.hpp"

namespace tinkertoy::bench {

namespace {

constexpr double kPointInertia = 1e-6;     // kg·m²
constexpr int kBodiesPerFile = 90;         // nested bodies in one MJCF file (tinyxml2: 96)
constexpr int kHingeChainMaxLinks = 1000;  // O(N³) a step beyond
constexpr double kMaxQuadraticBytes = 0.9 * std::numeric_limits<int>::max();

// An MJCF file in the virtual file system; the model is the first of a list.
struct XmlFile {
  std::string name;
  std::string text;
};

// The sizes MuJoCo allocates its data for.
struct ModelSize {
  long freedoms = 0;  // degrees of freedom
  long rows = 0;  // equality constraint rows
  long tendons = 0;

  // Numbers on the stack: the Newton solver's Hessian, its cone copy and their column indices
  // (an int takes a number's place), plus vectors.
  [[nodiscard]] long stack() const { return 3 * freedoms * freedoms + 100 * (rows + freedoms) + 1000000; }
  // Bytes of mjData's buffer in arrays sized by the product of two counts, each entry a number
  // and an int column index: the constraint Jacobian and its transpose, the tendon Jacobian,
  // and the dual solvers' matrix.
  [[nodiscard]] double quadraticBytes() const {
    const auto rowCount = static_cast<double>(rows), freedomCount = static_cast<double>(freedoms);
    const auto tendonCount = static_cast<double>(tendons);
    constexpr double entry = sizeof(mjtNum) + sizeof(int);
    return entry * (2 * rowCount * freedomCount + tendonCount * freedomCount + rowCount * rowCount);
  }
};

std::string number(double x) {
  std::ostringstream text;
  text.precision(17);
  text << x;
  return text.str();
}

std::string triple(double x, double y, double z) { return number(x) + " " + number(y) + " " + number(z); }
std::string triple(const Vector3& v) { return triple(v.x, v.y, v.z); }
Vector3 minus(const Vector3& a, const Vector3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }

std::string header(const Scenario& scenario, const ModelSize& size) {
  return "<mujoco model=\"" + scenario.name + "\">\n" +
         "<option timestep=\"" + number(scenario.dt) + "\" gravity=\"" + triple(scenario.gravity) + "\"/>\n" +
         "<size njmax=\"" + std::to_string(size.rows) + "\" nconmax=\"0\" nstack=\"" + std::to_string(size.stack()) +
         "\"/>\n";
}

std::string inertial(double mass, double tilt, double spin) {
  return "<inertial pos=\"0 0 0\" mass=\"" + number(mass) + "\" diaginertia=\"" + triple(tilt, tilt, spin) + "\"/>";
}

std::string slides(int dimension) {
  std::string joints = "<joint type=\"slide\" axis=\"1 0 0\"/><joint type=\"slide\" axis=\"0 1 0\"/>";
  if (dimension == 3) joints += "<joint type=\"slide\" axis=\"0 0 1\"/>";
  return joints;
}

long unnailed(const Scenario& scenario) {
  long count = 0;
  for (const Scenario::Particle& particle : scenario.particles) count += particle.nailed ? 0 : 1;
  return count;
}

long dynamicDiscs(const Scenario& scenario) {
  long count = 0;
  for (const Scenario::Disc& disc : scenario.discs) count += disc.isStatic ? 0 : 1;
  return count;
}

bool holdsSomething(const Scenario& scenario, const Scenario::Pin& pin) {
  return !scenario.discs[static_cast<std::size_t>(pin.a)].isStatic ||
         !scenario.discs[static_cast<std::size_t>(pin.b)].isStatic;
}

long connectRows(const Scenario& scenario) {
  long pins = 0;
  for (const Scenario::Pin& pin : scenario.pins) pins += holdsSomething(scenario, pin) ? 1 : 0;
  return 3 * pins;
}

ModelSize hingeChainSize(const Scenario& scenario) { return {static_cast<long>(scenario.particles.size()), 0, 0}; }
ModelSize tendonSize(const Scenario& scenario) {
  const auto rods = static_cast<long>(scenario.rods.size());
  return {scenario.dimension * unnailed(scenario), rods, rods};
}
ModelSize connectSize(const Scenario& scenario) { return {3 * dynamicDiscs(scenario), connectRows(scenario), 0}; }

std::string fileName(int part) { return "chain" + std::to_string(part) + ".xml"; }

// chain-N as nested bodies, kBodiesPerFile to a file, each file included by the innermost body
// of the one before.
std::vector<XmlFile> hingeChainFiles(const Scenario& scenario) {
  const int links = static_cast<int>(scenario.particles.size());
  std::vector<XmlFile> files;
  for (int first = 0; first < links; first += kBodiesPerFile) {
    const int part = first / kBodiesPerFile, last = std::min(links, first + kBodiesPerFile);
    std::string text = part == 0 ? header(scenario, hingeChainSize(scenario)) + "<worldbody>\n" : "<mujoco>\n";
    for (int i = first; i < last; ++i) {
      const Scenario::Particle& particle = scenario.particles[static_cast<std::size_t>(i)];
      const Vector3& hinge = i == 0 ? scenario.pivot : scenario.particles[static_cast<std::size_t>(i - 1)].position;
      text += "<body name=\"particle" + std::to_string(i) + "\" pos=\"" + triple(minus(particle.position, hinge)) +
              "\"><joint type=\"hinge\" axis=\"0 0 1\" pos=\"" + triple(minus(hinge, particle.position)) + "\"/>" +
              inertial(particle.mass, kPointInertia, kPointInertia) + "\n";
    }
    if (last < links) text += "<include file=\"" + fileName(part + 1) + "\"/>\n";
    for (int i = first; i < last; ++i) text += "</body>";
    text += part == 0 ? "\n</worldbody>\n</mujoco>\n" : "\n</mujoco>\n";
    files.push_back({fileName(part), text});
  }
  return files;
}

std::string siteOf(int particle) { return particle == Scenario::kPivot ? "pivot" : "site" + std::to_string(particle); }

std::vector<XmlFile> tendonFiles(const Scenario& scenario) {
  const bool pivoted = std::any_of(scenario.rods.begin(), scenario.rods.end(),
                                   [](const Scenario::Rod& rod) { return rod.b == Scenario::kPivot; });
  std::string text = header(scenario, tendonSize(scenario)) + "<worldbody>\n";
  if (pivoted) text += "<site name=\"pivot\" pos=\"" + triple(scenario.pivot) + "\"/>\n";
  for (std::size_t i = 0; i < scenario.particles.size(); ++i) {
    const Scenario::Particle& particle = scenario.particles[i];
    text += "<body pos=\"" + triple(particle.position) + "\">" + (particle.nailed ? "" : slides(scenario.dimension)) +
            inertial(particle.mass, kPointInertia, kPointInertia) + "<site name=\"" + siteOf(static_cast<int>(i)) +
            "\"/></body>\n";
  }
  text += "</worldbody>\n<tendon>\n";
  for (std::size_t i = 0; i < scenario.rods.size(); ++i) {
    const Scenario::Rod& rod = scenario.rods[i];
    text += "<spatial name=\"rod" + std::to_string(i) + "\"><site site=\"" + siteOf(rod.a) + "\"/><site site=\"" +
            siteOf(rod.b) + "\"/></spatial>\n";
  }
  text += "</tendon>\n<equality>\n";
  for (std::size_t i = 0; i < scenario.rods.size(); ++i) text += "<tendon tendon1=\"rod" + std::to_string(i) + "\"/>\n";
  text += "</equality>\n</mujoco>\n";
  return {{"tendons.xml", text}};
}

std::vector<XmlFile> connectFiles(const Scenario& scenario) {
  const std::string planar = slides(2) + "<joint type=\"hinge\" axis=\"0 0 1\"/>";
  std::string text = header(scenario, connectSize(scenario)) + "<worldbody>\n";
  for (std::size_t i = 0; i < scenario.discs.size(); ++i) {
    const Scenario::Disc& disc = scenario.discs[i];
    const double tilt = 0.25 * disc.mass * disc.radius * disc.radius;
    text += "<body name=\"disc" + std::to_string(i) + "\" pos=\"" + triple(disc.position) + "\">" +
            (disc.isStatic ? "" : planar) + inertial(disc.mass, tilt, disc.inertia) + "</body>\n";
  }
  text += "</worldbody>\n<equality>\n";
  for (const Scenario::Pin& pin : scenario.pins) {
    if (!holdsSomething(scenario, pin)) continue;
    text += "<connect body1=\"disc" + std::to_string(pin.a) + "\" body2=\"disc" + std::to_string(pin.b) +
            "\" anchor=\"" + triple(pin.localA) + "\"/>\n";
  }
  text += "</equality>\n</mujoco>\n";
  return {{"connect.xml", text}};
}

// A virtual file system, emptied when it goes.
struct VirtualFiles {
  mjVFS vfs;
  VirtualFiles() { mj_defaultVFS(&vfs); }
  ~VirtualFiles() { mj_deleteVFS(&vfs); }
  VirtualFiles(const VirtualFiles&) = delete;
  VirtualFiles& operator=(const VirtualFiles&) = delete;

  // The text with its terminating NUL, so the parser finds the end either way.
  void add(const XmlFile& file) {
    const auto size = file.text.size() + 1;
    if (mj_makeEmptyFileVFS(&vfs, file.name.c_str(), static_cast<int>(size)) != 0) {
      throw std::runtime_error("MuJoCo's virtual file system refused " + file.name);
    }
    std::memcpy(vfs.filedata[mj_findFileVFS(&vfs, file.name.c_str())], file.text.c_str(), size);
  }
};

struct ModelDeleter {
  void operator()(mjModel* model) const { mj_deleteModel(model); }
};
struct DataDeleter {
  void operator()(mjData* data) const { mj_deleteData(data); }
};

mjModel* loadModel(const std::vector<XmlFile>& files) {
  const auto virtualFiles = std::make_unique<VirtualFiles>();  // 2 MB: not on the stack
  for (const XmlFile& file : files) virtualFiles->add(file);
  std::array<char, 1000> error{};
  mjModel* model =
      mj_loadXML(files.front().name.c_str(), &virtualFiles->vfs, error.data(), static_cast<int>(error.size()));
  mj_freeLastXML();  // the parsed MJCF, which MuJoCo keeps for mj_saveLastXML
  if (!model) throw std::runtime_error(std::string("MuJoCo could not load the model: ") + error.data());
  return model;
}

class MujocoWorld final : public PeerWorld {
 public:
  // MuJoCo numbers bodies in the order of the MJCF, depth first, after the world (body 0): the
  // files above declare the scenario's bodies in its order, so body i is MuJoCo's body i + 1.
  MujocoWorld(const Scenario& scenario, const std::vector<XmlFile>& files)
      : model_(loadModel(files)), data_(mj_makeData(model_.get())), bodyCount_(scenario.bodyCount()) {
    if (!data_) throw std::runtime_error("MuJoCo could not allocate its data");
    if (static_cast<std::size_t>(model_->nbody) != bodyCount_ + 1) {
      throw std::logic_error("the MuJoCo model of " + scenario.name + " has " + std::to_string(model_->nbody - 1) +
                             " bodies, not " + std::to_string(bodyCount_));
    }
  }

  void step() override { mj_step(model_.get(), data_.get()); }

  // mj_step leaves the positions of bodies (xpos, xmat) as they were before it integrated:
  // recompute them, and the velocities, from the joint state (qpos, qvel), which stays as it is.
  void read(std::span<BodyState> out) const override {
    mj_kinematics(model_.get(), data_.get());
    mj_comPos(model_.get(), data_.get());
    mj_comVel(model_.get(), data_.get());
    for (std::size_t i = 0; i < bodyCount_; ++i) out[i] = bodyState(static_cast<int>(i) + 1);
  }

  // A body without joints is welded to the world: infinite mass.
  void masses(std::span<double> out) const override {
    for (std::size_t i = 0; i < bodyCount_; ++i) {
      const auto body = i + 1;
      out[i] = model_->body_dofnum[body] == 0 ? 0.0 : model_->body_mass[body];
    }
  }

 private:
  BodyState bodyState(int body) const {
    const mjtNum* position = data_->xpos + 3 * body;
    const mjtNum* rotation = data_->xmat + 9 * body;  // 3×3, row major
    std::array<mjtNum, 6> velocity{};                 // angular, then linear, in world axes
    mj_objectVelocity(model_.get(), data_.get(), mjOBJ_BODY, body, velocity.data(), 0);
    BodyState state;
    state.position = {position[0], position[1], position[2]};
    state.velocity = {velocity[3], velocity[4], velocity[5]};
    state.angle = std::atan2(rotation[3], rotation[0]);
    state.angularVelocity = velocity[2];
    return state;
  }

  std::unique_ptr<mjModel, ModelDeleter> model_;
  std::unique_ptr<mjData, DataDeleter> data_;
  std::size_t bodyCount_;
};

bool fits(const ModelSize& size) { return size.quadraticBytes() <= kMaxQuadraticBytes; }

}  // namespace

std::vector<EngineMode> mujocoModes() {
  const std::string engine = "mujoco 2.2";
  EngineMode hingeChain{engine, "hinge chain", false,
                        [](const Scenario& scenario) {
                          return scenario.kind == ScenarioKind::Chain && scenario.size <= kHingeChainMaxLinks;
                        },
                        [](const Scenario& scenario) {
                          return std::make_unique<MujocoWorld>(scenario, hingeChainFiles(scenario));
                        }};
  EngineMode tendons{engine, "tendons", false,
                     [](const Scenario& scenario) {
                       return (scenario.kind == ScenarioKind::Chain || scenario.kind == ScenarioKind::Cloth ||
                               scenario.kind == ScenarioKind::Tree || scenario.kind == ScenarioKind::Star) &&
                              fits(tendonSize(scenario));
                     },
                     [](const Scenario& scenario) {
                       return std::make_unique<MujocoWorld>(scenario, tendonFiles(scenario));
                     }};
  EngineMode connect{engine, "connect", false,
                     [](const Scenario& scenario) {
                       return scenario.kind == ScenarioKind::JointGrid && fits(connectSize(scenario));
                     },
                     [](const Scenario& scenario) {
                       return std::make_unique<MujocoWorld>(scenario, connectFiles(scenario));
                     }};
  return {hingeChain, tendons, connect};
}

}  // namespace tinkertoy::bench
