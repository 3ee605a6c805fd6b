// `tinkertoy plot`: gnuplot draws what the simulation measured. A conservative scene's total
// energy is a flat line while its kinetic energy swings; a damped one's total falls; a CSV
// trajectory plots the same as the scene; every bad input exits 2 and leaves no file.
#include <cairo.h>

#include <algorithm>
#include <regex>

#include "cli_fixture.hpp"

namespace tinkertoy::cli {
namespace {

// The y pixel coordinates of the series titled `title` in a gnuplot SVG: the longest subpath
// of the first path after the series' <title> (the shorter one is the sample in the key).
std::vector<double> seriesHeights(const std::string& svg, const std::string& title) {
  const std::size_t group = svg.find("<title>" + title + "</title>");
  if (group == std::string::npos) return {};
  const std::size_t d = svg.find(" d='", group);
  const std::string path = svg.substr(d + 4, svg.find('\'', d + 4) - d - 4);
  std::vector<double> longest, current;
  const std::regex point(R"(([ML])\s*([-0-9.]+),([-0-9.]+))");
  for (auto it = std::sregex_iterator(path.begin(), path.end(), point); it != std::sregex_iterator(); ++it) {
    if ((*it)[1] == "M") current.clear();
    current.push_back(std::stod((*it)[3]));
    if (current.size() > longest.size()) longest = current;
  }
  return longest;
}

// A pendulum slowed by drag: its energy falls by some 9 J in 4 s.
const char* const kDampedPendulum = R"({
    "name": "damped pendulum", "gravity": [0, -9.81],
    "particles": [{"id": "bob", "mass": 1, "position": [1, 0]}],
    "forces": [{"type": "drag", "coefficient": 0.5}],
    "constraints": [{"type": "distance", "a": "bob", "b": [0, 0]}],
    "settings": {"dt": 0.001, "duration": 4, "integrator": "rk4"}})";

double spread(const std::vector<double>& values) {
  const auto [low, high] = std::minmax_element(values.begin(), values.end());
  return *high - *low;
}

// A pendulum: rk4 at 1 ms conserves energy to ~1e-9 J of a ~10 J swing, far below a pixel.
TEST_F(Cli, PlotOfAConservativeSceneHasAFlatTotalEnergyLine) {
  const Result r = tinkertoy({"plot", kScenes + "pendulum.json", "-o", file("e.svg"), "--duration", "3"});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  EXPECT_NE(r.out.find("wrote " + file("e.svg")), std::string::npos) << r.out;
  const std::string svg = readFile(file("e.svg"));
  const std::vector<double> total = seriesHeights(svg, "total E = K + V");
  const std::vector<double> kinetic = seriesHeights(svg, "kinetic K");
  const std::vector<double> potential = seriesHeights(svg, "potential V");
  ASSERT_GT(total.size(), 1000u) << "the total-energy line is missing or short";
  EXPECT_LT(spread(total), 0.5) << "px: the total energy of a conservative scene is flat";
  EXPECT_GT(spread(kinetic), 50.0) << "px: the kinetic energy swings";
  EXPECT_NEAR(spread(kinetic), spread(potential), 1.0) << "V mirrors K";
  // Axes with units, a legend, a title, and ‖C‖∞ on a log scale (tick labels 10^k).
  EXPECT_NE(svg.find("energy (J)"), std::string::npos);
  EXPECT_NE(svg.find("time (s)"), std::string::npos);
  EXPECT_NE(svg.find("pendulum"), std::string::npos);
  EXPECT_NE(svg.find("<title>‖C‖∞</title>"), std::string::npos);
  EXPECT_TRUE(std::regex_search(svg, std::regex(R"(>10</tspan><tspan[^>]*>-1[0-6]</tspan>)")))
      << "log-scale labels are powers of ten, down to round-off";
}

// Drag takes energy out: the total-energy line ends lower than it starts (higher on screen).
TEST_F(Cli, PlotShowsADampedScenesEnergyFalling) {
  const std::string scene = writeScene("damped.json", kDampedPendulum);
  const Result r = tinkertoy({"plot", scene, "-o", file("e.svg"), "--what", "energy"});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  const std::vector<double> total = seriesHeights(readFile(file("e.svg")), "total E = K + V");
  ASSERT_GT(total.size(), 100u);
  EXPECT_GT(total.back() - total.front(), 20.0) << "px, downward on screen";
}

// The energy-drift panel of the damped pendulum: the drag's work accounts for the drift, so the
// drift falls, the ledger's work follows it down, and the numerical error stays flat (RK4's and
// the trapezoid rule's error, below 1e-6 J, is far below a pixel).
TEST_F(Cli, PlotSeparatesTheDriftIntoWorkAndNumericalError) {
  const std::string scene = writeScene("damped.json", kDampedPendulum);
  const Result r = tinkertoy({"plot", scene, "-o", file("d.svg"), "--what", "energy-drift"});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  const std::string svg = readFile(file("d.svg"));
  const std::vector<double> drift = seriesHeights(svg, "drift E(t) − E(0)");
  const std::vector<double> work = seriesHeights(svg, "work W(t) of the ledger");
  const std::vector<double> error = seriesHeights(svg, "numerical error E − E(0) − W");
  ASSERT_GT(drift.size(), 100u);
  ASSERT_EQ(work.size(), drift.size());
  ASSERT_EQ(error.size(), drift.size());
  EXPECT_GT(drift.back() - drift.front(), 100.0) << "px, downward on screen";
  for (std::size_t i = 0; i < drift.size(); ++i) EXPECT_NEAR(work[i], drift[i], 0.5) << i;
  EXPECT_LT(spread(error), 0.5) << "px";
}

// The trajectory CSV of `run` plots like the scene: one sample per row.
TEST_F(Cli, PlotReadsATrajectoryCsv) {
  ASSERT_EQ(tinkertoy({"run", kScenes + "double_pendulum.json", "--duration", "0.5", "--trajectory", file("t.csv")}).code,
            kSuccess);
  const Result r = tinkertoy({"plot", file("t.csv"), "-o", file("t.png"), "--size", "640x480", "--what",
                              "energy,energy-drift,constraint-error,velocity-error"});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  EXPECT_NE(r.out.find("501 samples from t = 0 to 0.5 s"), std::string::npos) << r.out;
  cairo_surface_t* png = cairo_image_surface_create_from_png(file("t.png").c_str());
  ASSERT_EQ(cairo_surface_status(png), CAIRO_STATUS_SUCCESS);
  EXPECT_EQ(cairo_image_surface_get_width(png), 640);
  EXPECT_EQ(cairo_image_surface_get_height(png), 480);
  cairo_surface_destroy(png);
}

TEST_F(Cli, PlotWritesPdf) {
  ASSERT_EQ(tinkertoy({"plot", kScenes + "pendulum.json", "-o", file("e.pdf"), "--duration", "1"}).code, kSuccess);
  EXPECT_EQ(readFile(file("e.pdf")).substr(0, 5), "%PDF-");
}

// Without constraints ‖C‖∞ is zero throughout: no log scale can show it, and the legend says so.
TEST_F(Cli, PlotSaysWhenTheConstraintErrorIsZeroThroughout) {
  const std::string scene = writeScene("free.json", R"({
    "particles": [{"id": "ball", "mass": 1, "position": [0, 0], "velocity": [1, 2]}],
    "settings": {"duration": 0.5}})");
  const Result r = tinkertoy({"plot", scene, "-o", file("c.svg"), "--what", "constraint-error"});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  EXPECT_NE(readFile(file("c.svg")).find("‖C‖∞ = 0 throughout"), std::string::npos);
}

// Each bad input: exit 2, a message naming the problem, and nothing written.
TEST_F(Cli, PlotBadInputExitsWithTwoAndLeavesNoFile) {
  const std::string pendulum = kScenes + "pendulum.json";
  const std::string noTime = writeScene("no_time.csv", "x,kinetic_energy\n1,2\n");
  const std::string text = writeScene("text.csv",
                                      "time,kinetic_energy,potential_energy,total_energy,constraint_error,velocity_error,work\n"
                                      "0,1,2,3,0,0,0\n0.1,1,two,3,0,0,0\n");
  const std::string ragged = writeScene("ragged.csv",
                                        "time,kinetic_energy,potential_energy,total_energy,constraint_error,velocity_error,work\n"
                                        "0,1,2,3,0,0\n");
  const std::string empty = writeScene("empty.csv",
                                       "time,kinetic_energy,potential_energy,total_energy,constraint_error,velocity_error,work\n");
  const std::string broken = writeScene("broken.json", R"({"particles": [{"id": "a", "mass": -1, "position": [0, 0]}]})");
  fs::create_directory(file("folder.svg"));
  const std::vector<std::string> inputs = listing();
  const struct {
    std::vector<std::string> args;
    std::string says;
  } cases[] = {
      {{"plot", pendulum, "-o", file("e.mp4")}, "unknown plot type '.mp4'"},
      {{"plot", pendulum, "-o", file("e.txt")}, "unknown plot type '.txt'"},
      {{"plot", pendulum, "-o", (dir_ / "missing" / "e.svg").string()}, "cannot write"},
      {{"plot", pendulum, "-o", dir_.string() + "/"}, "-o"},
      {{"plot", pendulum, "-o", file("folder.svg")}, "is a directory"},
      {{"plot", pendulum, "-o", file("e.svg"), "--size", "199x300"}, "at least 200 pixels"},
      {{"plot", pendulum, "-o", file("e.svg"), "--size", "0x100"}, "--size"},
      {{"plot", pendulum, "-o", file("e.svg"), "--size", "-3x100"}, "--size"},
      {{"plot", pendulum, "-o", file("e.svg"), "--what", "energy,entropy"}, "entropy"},
      {{"plot", pendulum, "-o", file("e.svg"), "--dt", "nan"}, "--dt"},
      {{"plot", noTime, "-o", file("e.svg")}, "no column 'time'"},
      {{"plot", text, "-o", file("e.svg")}, "text.csv:3: column 'potential_energy': expected a finite decimal number, got 'two'"},
      {{"plot", ragged, "-o", file("e.svg")}, "ragged.csv:2: expected 7 values, found 6"},
      {{"plot", empty, "-o", file("e.svg")}, "no rows"},
      {{"plot", file("absent.csv"), "-o", file("e.svg")}, "cannot read"},
      {{"plot", text, "-o", file("e.svg"), "--dt", "0.01"}, "apply to a scene"},
      {{"plot", broken, "-o", file("e.svg")}, "particles[0].mass"},
  };
  for (const auto& c : cases) {
    const Result r = tinkertoy(c.args);
    EXPECT_EQ(r.code, kBadInput) << c.args[3] << ": " << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
    EXPECT_EQ(listing().size(), inputs.size()) << "a file was left behind by: " << r.err;
  }
}

TEST_F(Cli, PlotWithoutGnuplotNamesTheDebianPackage) {
  const Result r = withFakeProgram("gnuplot", "", {"plot", kScenes + "pendulum.json", "-o", file("e.svg")});
  EXPECT_EQ(r.code, kBadInput);
  EXPECT_NE(r.err.find("gnuplot-nox"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(file("e.svg")));
}

// A gnuplot that fails (here a fake one that complains), or that cannot be started at all:
// exit 4, its message quoted, and no file.
TEST_F(Cli, FailingGnuplotExitsWithFourAndLeavesNoFile) {
  for (const std::string script : {"#!/bin/sh\n/bin/cat > /dev/null\necho 'fake gnuplot: no terminal' >&2\nexit 1\n",
                                   "#!/nonexistent/interpreter\n"}) {
    const Result r =
        withFakeProgram("gnuplot", script, {"plot", kScenes + "pendulum.json", "--duration", "0.1", "-o", file("e.svg")});
    EXPECT_EQ(r.code, kOutputFailed) << r.err;
    EXPECT_NE(r.err.find("gnuplot"), std::string::npos) << r.err;
    EXPECT_EQ(listing(), std::vector<std::string>{"bin"}) << r.err;
  }
}

// gnuplot runs `backquoted` text in double-quoted strings as a shell command; the scene's name
// and the output's path reach its script, and must come out as plain text.
TEST_F(Cli, PlotTitlesAndPathsAreNeverRunAsCommands) {
  const std::string marker = file("ran");
  const std::string scene = writeScene("sly.json", R"({"name": "sly `touch )" + marker + R"(` 'quoted' \\ \"x\"",
    "particles": [{"id": "a", "mass": 1, "position": [1, 0]}],
    "constraints": [{"type": "distance", "a": "a", "b": [0, 0]}], "settings": {"duration": 0.2}})");
  const std::string svg = file("it's `touch ran` \\.svg");
  const Result r = tinkertoy({"plot", scene, "-o", svg});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  EXPECT_FALSE(fs::exists(marker)) << "a backquoted command ran";
  EXPECT_FALSE(fs::exists(file("ran")));
  EXPECT_NE(readFile(svg).find("sly `touch "), std::string::npos) << "the title is shown as written";
}

// A trajectory named in capitals is still a CSV.
TEST_F(Cli, PlotReadsACsvWhateverTheCaseOfItsExtension) {
  ASSERT_EQ(tinkertoy({"run", kScenes + "pendulum.json", "--duration", "0.2", "--trajectory", file("T.CSV")}).code, kSuccess);
  const Result r = tinkertoy({"plot", file("T.CSV"), "-o", file("t.svg")});
  EXPECT_EQ(r.code, kSuccess) << r.err;
}

// A gnuplot that exits 0 without writing: the empty file is not passed off as a plot.
TEST_F(Cli, PlotRefusesAnEmptyOutput) {
  const Result r = withFakeProgram("gnuplot", "#!/bin/sh\n/bin/cat > /dev/null\nexit 0\n",
                                   {"plot", kScenes + "pendulum.json", "--duration", "0.1", "-o", file("e.svg")});
  EXPECT_EQ(r.code, kOutputFailed) << r.err;
  EXPECT_NE(r.err.find("came out empty"), std::string::npos) << r.err;
  EXPECT_EQ(listing(), std::vector<std::string>{"bin"});
}

}  // namespace
}  // namespace tinkertoy::cli
