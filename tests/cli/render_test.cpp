// `tinkertoy render`, run in-process: the files it writes (PNG, SVG, PDF, MP4, GIF), where the
// picture puts things (the framing rule of render_fixture.hpp, worked out by hand), what
// --forces adds, that rendering samples the simulation without changing it, and the progress
// bar. Strobes, trails, framing and 3D views are in render_pictures_test.cpp; what goes wrong
// is in render_failures_test.cpp.
#include <libxml/parser.h>
#include <libxml/tree.h>

#include <cstdio>
#include <tuple>

#include "render_fixture.hpp"

namespace tinkertoy::cli {
namespace {

// ---- Videos ------------------------------------------------------------------------------

// ffprobe's description of the first video stream (codec_name, width, height, duration,
// nb_read_frames), or nothing when ffprobe fails.
std::optional<nlohmann::json> probeVideo(const std::string& file) {
  std::string command(
      "ffprobe -v error -count_frames -select_streams v:0 "
      "-show_entries stream=nb_read_frames,duration,width,height,codec_name -of json '");
  command.append(file).append("' 2>&1");
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) return std::nullopt;
  std::string text;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) text.append(buffer, n);
  if (::pclose(pipe) != 0) {
    ADD_FAILURE() << command << " failed (is ffprobe installed? scripts/install-deps.sh installs ffmpeg):\n" << text;
    return std::nullopt;
  }
  const nlohmann::json probe = nlohmann::json::parse(text, nullptr, false);
  if (probe.is_discarded() || !probe.contains("streams") || probe["streams"].empty()) {
    ADD_FAILURE() << "ffprobe printed no video stream:\n" << text;
    return std::nullopt;
  }
  return probe["streams"][0];
}

// ffprobe prints numbers as strings ("1.500000", "30").
double number(const nlohmann::json& value) {
  return value.is_string() ? std::stod(value.get<std::string>()) : value.get<double>();
}

// ---- PNG size -------------------------------------------------------------------------

TEST_F(Render, PngDecodesToTheRequestedSize) {
  for (const auto& [size, width, height] : {std::tuple{"640x480", 640, 480}, std::tuple{"333x222", 333, 222}}) {
    SCOPED_TRACE(size);
    const std::string png = output(std::string(size).append(".png"));
    const Result r = tinkertoy({"render", kPendulum, "--duration", "0.1", "--size", size, "-o", png});
    ASSERT_EQ(r.code, kSuccess) << r.err;
    EXPECT_TRUE(contains(r.out, std::string("wrote ").append(png).append(": ").append(size))) << r.out;
    const Picture picture(png);
    ASSERT_TRUE(picture.ok()) << png << " does not decode";
    EXPECT_EQ(picture.width(), width);
    EXPECT_EQ(picture.height(), height);
  }
}

// ---- Where a particle appears ---------------------------------------------------------

// No gravity and nothing moving: a (1 kg) rests at (−1, 0) and b (8 kg) at (1, 0.5).
//
// 640×480: u = max(1, 480/720) = 1, legend round(30) = 30 px, viewport 640 × 450.
// Bounds: the two dots, x ∈ [−1, 1] (2 m), y ∈ [0, 0.5], which is shorter than 1 m, so
// widened about its middle 0.25 to [−0.25, 0.75]. Centre (0, 0.25).
// scale = min(0.88·640/2, 0.88·450/1) = min(281.6, 396) = 281.6 px/m.
//   a: (320 − 281.6, 225 + 281.6·0.25) = (38.4, 295.4)
//   b: (320 + 281.6, 225 − 281.6·0.25) = (601.6, 154.6)
// Radii: dotRadius(1) = 6·1 = 6 px; dotRadius(8) = 6·clamp(2, 0.7, 1.8) = 10.8 px.
TEST_F(Render, ParticlesAppearWhereTheFramingRulePutsThem) {
  const std::string scene = writeScene("still.json", R"({"gravity": [0, 0], "settings": {"duration": 0.5},
      "particles": [{"id": "a", "mass": 1, "position": [-1, 0]}, {"id": "b", "mass": 8, "position": [1, 0.5]}]})");
  const std::string png = output("still.png");
  const Result r = tinkertoy({"render", scene, "--size", "640x480", "-o", png});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  const Picture picture(png);
  ASSERT_TRUE(picture.ok());

  // a's centre (38.4, 295.4) lies in pixel (38, 295); 20 px right or up is background.
  EXPECT_TRUE(isColour(picture.at(38, 295), kDot));
  EXPECT_TRUE(isColour(picture.at(58, 295), kBackground));
  EXPECT_TRUE(isColour(picture.at(38, 275), kBackground));
  // Pixel (45, 295) comes no nearer than 6.6 px to a's centre: outside its 6 px radius.
  EXPECT_TRUE(isColour(picture.at(45, 295), kBackground));

  // b's centre (601.6, 154.6): pixel (601, 154) is the dot, and so is all of pixel (610, 154)
  // (at most 9.4 px away) inside its 10.8 px radius; pixel (613, 154) (at least 11.4 px away)
  // and one 20 px to the left are not.
  EXPECT_TRUE(isColour(picture.at(601, 154), kDot));
  EXPECT_TRUE(isColour(picture.at(610, 154), kDot));
  EXPECT_TRUE(isColour(picture.at(613, 154), kBackground));
  EXPECT_TRUE(isColour(picture.at(581, 154), kBackground));

  // The legend strip is the bottom 30 px (rows 450–479), the framing's viewport ends above it.
  EXPECT_TRUE(isColour(picture.at(2, 465), {232, 232, 224}));
  EXPECT_TRUE(isColour(picture.at(2, 446), kBackground));
}

// --ghost draws a second run of the scene over the first, every mark in the ghost's colour and
// see-through: a particle that both runs leave in place shows the ghost's orange over its dot.
TEST_F(Render, AGhostIsASecondRunDrawnOverTheFirstInItsOwnColour) {
  const std::string scene = writeScene("still.json", R"({"gravity": [0, 0], "settings": {"duration": 0.5},
      "particles": [{"id": "a", "mass": 1, "position": [-1, 0]}, {"id": "b", "mass": 8, "position": [1, 0.5]}]})");
  const std::string png = output("ghost.png");
  const Result r = tinkertoy({"render", scene, "--size", "640x480", "-o", png, "--ghost", "--integrator euler --dt 0.01"});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  const Picture picture(png);
  ASSERT_TRUE(picture.ok());
  const Rgb ghost = over(rgb(colours::kGhost), colours::kGhost.a / 255.0, kDot);
  EXPECT_TRUE(isColour(picture.at(38, 295), ghost, 4));  // a's centre, as in ParticlesAppearWhereTheFramingRulePutsThem
  EXPECT_TRUE(isColour(picture.at(601, 154), ghost, 4));
  EXPECT_TRUE(isColour(picture.at(58, 295), kBackground));
}

TEST_F(Render, AGhostsBadFlagsAndBlowUpAreSaid) {
  Result r = tinkertoy({"render", kPendulum, "-o", output("x.png"), "--ghost", "--solver nonsense"});
  EXPECT_EQ(r.code, kBadInput);
  EXPECT_TRUE(contains(r.err, "error: --ghost '--solver nonsense'")) << r.err;
  r = tinkertoy({"render", kPendulum, "-o", output("x.png"), "--ghost", "--dt 1e-12"});
  EXPECT_EQ(r.code, kBadInput);
  EXPECT_TRUE(contains(r.err, "error: --ghost: ")) << r.err;
  EXPECT_TRUE(leftovers().empty());
  // The ghost blows up (the scene's own settings), the run drawn does not: a warning, a picture.
  const std::string scene = writeScene("blowup.json", kBlowUpScene);
  r = tinkertoy({"render", scene, "-o", output("y.png"), "--integrator", "symplectic-euler", "--dt", "1e-5", "--duration",
                 "0.1", "--ghost", ""});
  EXPECT_EQ(r.code, kSuccess) << r.err;
  EXPECT_TRUE(contains(r.err, "warning: --ghost: ")) << r.err;
  EXPECT_TRUE(Picture(output("y.png")).ok());
}

// ---- SVG and PDF -------------------------------------------------------------------

TEST_F(Render, SvgIsXmlOfTheRequestedSize) {
  const std::string svg = output("pendulum.svg");
  const Result r = tinkertoy({"render", kPendulum, "--duration", "0.2", "--size", "320x240", "-o", svg});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  const std::unique_ptr<xmlDoc, decltype(&xmlFreeDoc)> doc(xmlReadFile(svg.c_str(), nullptr, XML_PARSE_NONET),
                                                           xmlFreeDoc);
  ASSERT_NE(doc, nullptr) << svg << " is not XML";
  const xmlNode* root = xmlDocGetRootElement(doc.get());
  ASSERT_NE(root, nullptr);
  EXPECT_STREQ(reinterpret_cast<const char*>(root->name), "svg");
  for (const auto& [attribute, expected] : {std::pair{"width", 320.0}, std::pair{"height", 240.0}}) {
    xmlChar* value = xmlGetProp(root, reinterpret_cast<const xmlChar*>(attribute));
    ASSERT_NE(value, nullptr) << attribute;
    const std::string text(reinterpret_cast<const char*>(value));
    xmlFree(value);
    std::size_t used = 0;
    EXPECT_DOUBLE_EQ(std::stod(text, &used), expected) << attribute << "=\"" << text << "\"";
    const std::string unit = text.substr(used);
    EXPECT_TRUE(unit.empty() || unit == "px") << attribute << "=\"" << text << "\": the size is in pixels";
  }
}

TEST_F(Render, PdfStartsWithTheMagicAndHasThePageSize) {
  const std::string pdf = output("pendulum.pdf");
  const Result r = tinkertoy({"render", kPendulum, "--duration", "0.2", "--size", "320x240", "-o", pdf});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  const std::string bytes = readFile(pdf);
  EXPECT_EQ(bytes.substr(0, 5), "%PDF-");
  // One page of 320 × 240 (points: a pixel of --size is a point on paper).
  const std::size_t box = bytes.find("/MediaBox");
  ASSERT_NE(box, std::string::npos);
  std::istringstream numbers(bytes.substr(bytes.find('[', box) + 1, 64));
  double x0 = -1, y0 = -1, x1 = -1, y1 = -1;
  numbers >> x0 >> y0 >> x1 >> y1;
  EXPECT_EQ(x0, 0);
  EXPECT_EQ(y0, 0);
  EXPECT_EQ(x1, 320);
  EXPECT_EQ(y1, 240);
}

// ---- Videos ------------------------------------------------------------------------

// 1.5 s at 20 fps: 1.5 × 20 = 30 frames, lasting 30/20 = 1.5 s.
TEST_F(Render, Mp4HasDurationTimesFpsFramesOfH264) {
  const std::string mp4 = output("pendulum.mp4");
  const Result r =
      tinkertoy({"render", kPendulum, "--duration", "1.5", "--fps", "20", "--size", "320x240", "-o", mp4});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  EXPECT_TRUE(contains(r.out, "320x240, 30 frames at 20 fps")) << r.out;
  const std::optional<nlohmann::json> stream = probeVideo(mp4);
  ASSERT_TRUE(stream);
  EXPECT_EQ((*stream)["codec_name"], "h264");
  EXPECT_EQ((*stream)["width"], 320);
  EXPECT_EQ((*stream)["height"], 240);
  EXPECT_NEAR(number((*stream)["nb_read_frames"]), 1.5 * 20, 1.0);
  EXPECT_NEAR(number((*stream)["duration"]), 1.5, 1.0 / 20);
}

TEST_F(Render, GifHasDurationTimesFpsFrames) {
  const std::string gif = output("pendulum.gif");
  const Result r =
      tinkertoy({"render", kPendulum, "--duration", "1.5", "--fps", "20", "--size", "160x120", "-o", gif});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  EXPECT_TRUE(contains(r.out, "160x120, 30 frames at 20 fps")) << r.out;
  EXPECT_EQ(readFile(gif).substr(0, 6), "GIF89a");
  const std::optional<nlohmann::json> stream = probeVideo(gif);
  ASSERT_TRUE(stream);
  EXPECT_EQ((*stream)["codec_name"], "gif");
  EXPECT_EQ((*stream)["width"], 160);
  EXPECT_EQ((*stream)["height"], 120);
  EXPECT_NEAR(number((*stream)["nb_read_frames"]), 1.5 * 20, 1.0);
  EXPECT_NEAR(number((*stream)["duration"]), 1.5, 1.0 / 20) << "a GIF at up to 50 fps plays in real time";
}

// Every frame of a video is drawn afresh: a title cairo cannot show (a file name that is not
// UTF-8) once froze every frame after the first. Distinct frames have distinct checksums.
TEST_F(Render, EveryVideoFrameIsDrawnEvenWithAnUnprintableTitle) {
  const std::string scene = file("bad\xff name.json");
  fs::copy_file(kPendulum, scene);
  const std::string gif = output("swing.gif");
  ASSERT_EQ(tinkertoy({"render", scene, "--duration", "1", "--fps", "4", "--size", "120x90", "-o", gif}).code, kSuccess);
  std::string command("ffmpeg -v error -i '");
  command.append(gif).append("' -f framemd5 - 2>&1");
  FILE* pipe = ::popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::vector<std::string> sums;
  char line[512];
  while (std::fgets(line, sizeof line, pipe)) {
    const std::string text = line;
    if (!text.empty() && text[0] != '#') sums.push_back(text.substr(text.rfind(',') + 1));
  }
  ::pclose(pipe);
  ASSERT_EQ(sums.size(), 4u);
  std::sort(sums.begin(), sums.end());
  EXPECT_EQ(std::unique(sums.begin(), sums.end()), sums.end()) << "two frames are the same picture";
}

// ffmpeg reads "name:rest" as a protocol unless told it is a file.
TEST_F(Render, AnOutputNameWithAColonIsAFile) {
  const std::string gif = output("10:00.gif");
  const Result r = tinkertoy({"render", kPendulum, "--duration", "0.2", "--size", "64x48", "-o", gif});
  EXPECT_EQ(r.code, kSuccess) << r.err;
  EXPECT_EQ(readFile(gif).substr(0, 6), "GIF89a");
}

// A long run with a small dt: a frame is taken by step number, so the sum of ten thousands of
// dt, which drifts from 2 s, cannot make the last frame go missing.
TEST_F(Render, TheLastFrameIsTakenAfterManySmallSteps) {
  const std::string png = output("late.png");
  const Result r = tinkertoy({"render", kPendulum, "--dt", "0.0001", "--time", "2", "--size", "64x48", "-o", png});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  EXPECT_TRUE(contains(r.out, "t = 2 s")) << r.out;
}

// ---- Rendering samples the simulation, it does not change it --------------------------

// What could go wrong: a renderer that steps to the exact time of each picture (splitting a
// step), or runs other settings than the flags ask, or shows another step than --time. So
// the simulation here is made very sensitive to its steps: explicit Euler with a huge
// dt = 0.35 s (given as flags, over the scene's rk4 at 1 ms), a ball falling from rest, and
// a strobe of 4 exposures at 0, 0.7/3, 1.4/3, 0.7 s, two of which are between steps.
//
// Euler over steps h_k from rest gives y = −g Σ_{i<k} h_i h_k = −(g/2) (T² − Σ h_k²):
//   the scene's steps (2 × 0.35):            y = −4.905 (0.49 − 0.245)   = −1.2017 m
//   split at 0.2333 and 0.4667 (4 steps):    y = −4.905 (0.49 − 0.1361)  = −1.7358 m
//   exact free fall:                         y = −4.905 · 0.49           = −2.4035 m
// `run --duration 0.7` with the same flags says where the ball is; the still's last (opaque)
// exposure must be the dot there.
//
// A nailed post at (1, −3) fixes the framing whatever the ball does: bounds x ∈ [0, 1],
// y ∈ [−3, 0], centre (0.5, −1.5). 400×400: u = 1, viewport 400 × 370,
// scale = min(0.88·400/1, 0.88·370/3) = min(352, 108.533) = 108.533 px/m,
// pixel = (200 + 108.533 (x − 0.5), 185 − 108.533 (y + 1.5)).
TEST_F(Render, AStillShowsTheStateRunReachesWithTheSameSteps) {
  const std::string scene = writeScene("drop.json", R"({"settings": {"duration": 2, "integrator": "rk4", "dt": 0.001},
      "particles": [{"id": "ball", "mass": 1, "position": [0, 0]}, {"id": "post", "mass": 1, "position": [1, -3]}],
      "constraints": [{"type": "fixed", "particle": "post"}]})");
  const Result run = tinkertoy({"run", scene, "--duration", "0.7", "--integrator", "euler", "--dt", "0.35",
                                "--summary", file("summary.json")});
  ASSERT_EQ(run.code, kSuccess) << run.err;
  const nlohmann::json summary = nlohmann::json::parse(readFile(file("summary.json")));
  const auto ball = summary["final_state"]["ball"]["position"].get<std::vector<double>>();
  const auto post = summary["final_state"]["post"]["position"].get<std::vector<double>>();
  ASSERT_EQ(ball.size(), 2u);
  EXPECT_NEAR(ball[0], 0.0, 1e-12);
  EXPECT_NEAR(ball[1], -1.2017, 1e-4);  // Euler's two steps, above
  EXPECT_NEAR(post[0], 1.0, 1e-9);      // the post holds the framing
  EXPECT_NEAR(post[1], -3.0, 1e-9);

  const std::string png = output("drop.png");
  const Result r = tinkertoy({"render", scene, "--time", "0.7", "--exposures", "4", "--integrator", "euler", "--dt",
                              "0.35", "--size", "400x400", "-o", png});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  EXPECT_TRUE(contains(r.out, "t = 0 to 0.7 s, 4 exposures")) << r.out;
  const Picture picture(png);
  ASSERT_TRUE(picture.ok());
  const auto pixel = [](double x, double y) {
    return std::pair{static_cast<int>(std::floor(200.0 + 108.533 * (x - 0.5))),
                     static_cast<int>(std::floor(185.0 - 108.533 * (y + 1.5)))};
  };
  // Where run's ball is, (145.7, 152.6): the opaque last exposure.
  const auto [x, y] = pixel(ball[0], ball[1]);
  EXPECT_TRUE(isColour(picture.at(x, y), kDot)) << "at " << x << ", " << y;
  // Where split steps (y = 210.6 px) or exact time integration (283.1 px) would have put it: nothing.
  const auto [xs, ys] = pixel(0.0, -1.7358);
  EXPECT_TRUE(isColour(picture.at(xs, ys), kBackground)) << "at " << xs << ", " << ys;
  const auto [xe, ye] = pixel(0.0, -2.4035);
  EXPECT_TRUE(isColour(picture.at(xe, ye), kBackground)) << "at " << xe << ", " << ye;
}

// ---- Forces ----------------------------------------------------------------------------

// A 1 kg bob hangs at rest on a 1 m rod from a nail at the origin; the rod pulls it up with
// m g = 9.81 N, the only (so the largest) constraint force, drawn kLongestArrow = 80 px long.
// Bounds: nail (0, 0) and bob (0, −1); x widened to [−0.5, 0.5]; centre (0, −0.5). 400×400,
// viewport 400 × 370 (centre (200, 185)).
//   Without --forces the margin is 0.06: scale = min(352/1, 325.6/1) = 325.6 px/m, so the bob is
//   at (200, 185 + 162.8) = (200, 347.8).
//   With --forces the margin leaves room for an arrow, (80 + 10)/370 = 0.2432 of the viewport:
//   scale = min(400 − 194.6, 370 − 180) = 190 px/m, the bob at (200, 185 + 95) = (200, 280), and
//   the arrow from there up to (200, 200), 2.5 px wide, so columns 199 and 200 are green along
//   it (drawn over the rod and the dot); above the tip (round cap: 1.25 px more) there is none.
// Pixel (196, bob + 2) is within 4.5 px of the bob's centre but off the shaft: the dot.
TEST_F(Render, ForcesDrawAnArrowOnlyWhenAsked) {
  const std::string scene = writeScene("hanging.json", R"({"settings": {"duration": 0.1},
      "particles": [{"id": "bob", "mass": 1, "position": [0, -1]}],
      "constraints": [{"type": "distance", "a": "bob", "b": [0, 0]}]})");
  for (const bool forces : {true, false}) {
    SCOPED_TRACE(forces ? "--forces" : "no --forces");
    const std::string png = output(forces ? "forces.png" : "plain.png");
    std::vector<std::string> args = {"render", scene, "--size", "400x400", "-o", png};
    if (forces) args.emplace_back("--forces");
    const Result r = tinkertoy(args);
    ASSERT_EQ(r.code, kSuccess) << r.err;
    const Picture picture(png);
    ASSERT_TRUE(picture.ok());
    const int bob = forces ? 280 : 348;
    EXPECT_TRUE(isColour(picture.at(196, bob + 2), kDot));
    int green = 0, greenAboveTip = 0, greenBelowBob = 0;
    for (int y = 0; y < picture.height(); ++y) {
      for (int x = 0; x < picture.width(); ++x) {
        if (!near(picture.at(x, y), kForce, 10)) continue;
        ++green;
        if (y < 196) ++greenAboveTip;
        if (y > bob + 7) ++greenBelowBob;
      }
    }
    if (forces) {
      EXPECT_TRUE(isColour(picture.at(199, 240), kForce));
      EXPECT_TRUE(isColour(picture.at(200, 240), kForce));
      EXPECT_TRUE(isColour(picture.at(200, 215), kForce));
      EXPECT_GT(green, 150);  // a shaft of about 80 × 2 px and a head
    } else {
      EXPECT_FALSE(isColour(picture.at(200, 300), kForce, 10));
      EXPECT_EQ(green, 0);
    }
    EXPECT_EQ(greenAboveTip, 0) << "the arrow is longer than 80 px";
    EXPECT_EQ(greenBelowBob, 0) << "the arrow points down";
  }
}

// ---- Progress ----------------------------------------------------------------------------

// The bars appear only on a terminal (simulating, then for a video encoding), are erased at
// the end, and --quiet turns them off.
TEST_F(Render, ProgressShowsOnlyOnATerminalWithoutQuiet) {
  const std::vector<std::string> still = {"render", kPendulum, "--duration", "0.5", "--size", "64x48", "-o",
                                          output("p.png")};
  const Result terminal = tinkertoy(still, true);
  ASSERT_EQ(terminal.code, kSuccess) << terminal.err;
  EXPECT_TRUE(contains(terminal.err, "simulating [")) << terminal.err;
  EXPECT_TRUE(contains(terminal.err, "100%")) << terminal.err;
  ASSERT_GE(terminal.err.size(), 4u);
  EXPECT_EQ(terminal.err.substr(terminal.err.size() - 4), "\r\033[K") << "the bar is erased at the end";

  EXPECT_EQ(tinkertoy(still).err, "");
  std::vector<std::string> quiet = still;
  quiet.emplace_back("--quiet");
  EXPECT_EQ(tinkertoy(quiet, true).err, "");

  const std::vector<std::string> video = {"render", kPendulum, "--duration", "0.3", "--fps", "10", "--size", "64x48",
                                          "-o", output("p.gif")};
  const Result encoding = tinkertoy(video, true);
  ASSERT_EQ(encoding.code, kSuccess) << encoding.err;
  EXPECT_TRUE(contains(encoding.err, "simulating [")) << encoding.err;
  EXPECT_TRUE(contains(encoding.err, "encoding")) << encoding.err;
  EXPECT_TRUE(contains(encoding.err, "frames/s")) << encoding.err;
  std::vector<std::string> quietVideo = video;
  quietVideo.emplace_back("--quiet");
  EXPECT_EQ(tinkertoy(quietVideo, true).err, "");
}

}  // namespace
}  // namespace tinkertoy::cli
