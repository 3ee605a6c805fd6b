// `tinkertoy render`, run in-process: the files it writes (PNG, SVG, PDF, MP4, GIF), where the
// picture puts things (the framing rule of render_fixture.hpp, worked out by hand), what
// --exposures, --trails and --forces add, that rendering samples the simulation without
// changing it, and the progress bar. What goes wrong is in render_failures_test.cpp.
#include <libxml/parser.h>
#include <libxml/tree.h>

#include <cstdio>
#include <fstream>
#include <tuple>

#include "render_command.hpp"
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

// ---- A strobe ---------------------------------------------------------------------------

// A ball thrown sideways at 1 m/s from the origin (rk4 is exact for constant gravity):
// x = t, y = −½ g t². --time 1 --exposures 5 spreads over the default span of 1 s ending at
// t = 1: t_j = 1·j/4 = 0, 0.25, 0.5, 0.75, 1 s, at
//   (0, 0), (0.25, −0.3066), (0.5, −1.2263), (0.75, −2.7591), (1, −4.905).
// Bounds x ∈ [0, 1], y ∈ [−4.905, 0], centre (0.5, −2.4525). 400×400: viewport 400 × 370,
// scale = min(352/1, 325.6/4.905) = 66.381 px/m, pixel = (200 + 66.381 (x − 0.5), 185 − 66.381 (y + 2.4525)):
//   j = 0: (166.81, 22.20)   j = 1: (183.40, 42.55)   j = 2: (200.00, 103.60)
//   j = 3: (216.60, 205.35)  j = 4: (233.19, 347.80)
// Exposure j of 5 is drawn at opacity 1 − 0.8 (4 − j)/4 = 0.2, 0.4, 0.6, 0.8, 1 over the background.
TEST_F(Render, ExposuresShowAStrobeOfAFallingParticle) {
  const std::string scene = writeScene("throw.json", R"({"settings": {"duration": 3},
      "particles": [{"id": "ball", "mass": 1, "position": [0, 0], "velocity": [1, 0]}]})");
  const std::string png = output("strobe.png");
  const Result r =
      tinkertoy({"render", scene, "--time", "1", "--exposures", "5", "--size", "400x400", "-o", png});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  EXPECT_TRUE(contains(r.out, "5 exposures")) << r.out;
  const Picture picture(png);
  ASSERT_TRUE(picture.ok());
  const std::pair<int, int> dots[] = {{166, 22}, {183, 42}, {200, 103}, {216, 205}, {233, 347}};
  for (int j = 0; j < 5; ++j) {
    const double opacity = 1.0 - 0.8 * (4 - j) / 4.0;
    const auto [x, y] = dots[j];
    EXPECT_TRUE(isColour(picture.at(x, y), over(kDot, opacity, kBackground)))
        << "exposure " << j << " at " << x << ", " << y;
  }
  // The first exposure is fainter than a dot: (203, 207, 212), lighter in every channel.
  const Rgb first = picture.at(166, 22);
  EXPECT_GT(first.r, kDot.r + 100);
  EXPECT_GT(first.g, kDot.g + 100);
  EXPECT_GT(first.b, kDot.b + 100);
  // Between the last two exposures, (224.9, 276.6), 70 px from each: background.
  EXPECT_TRUE(isColour(picture.at(224, 276), kBackground));
}

// The spacing rule: exposures evenly over the span ending at --time; the span is --span, else
// the scene's period, else 1 s, at most the time itself; with a period P at most P (K − 1)/K,
// so no two exposures are a whole period apart.
TEST(StrobeTimes, SpreadOverTheSpanEndingAtTheTime) {
  const auto expectTimes = [](const std::vector<double>& actual, const std::vector<double>& expected) {
    ASSERT_EQ(actual.size(), expected.size());
    for (std::size_t j = 0; j < expected.size(); ++j) EXPECT_NEAR(actual[j], expected[j], 1e-12) << j;
  };
  expectTimes(strobeTimes(5, 3.0, std::nullopt, std::nullopt), {2.0, 2.25, 2.5, 2.75, 3.0});
  expectTimes(strobeTimes(3, 3.0, 2.0, std::nullopt), {1.0, 2.0, 3.0});
  expectTimes(strobeTimes(3, 0.5, std::nullopt, std::nullopt), {0.0, 0.25, 0.5});  // the span fits the time
  expectTimes(strobeTimes(4, 10.0, std::nullopt, 2.0), {8.5, 9.0, 9.5, 10.0});      // a period P: P/K apart
  expectTimes(strobeTimes(4, 10.0, 5.0, 2.0), {8.5, 9.0, 9.5, 10.0});               // a longer span is capped
  expectTimes(strobeTimes(4, 10.0, 0.3, 2.0), {9.7, 9.8, 9.9, 10.0});               // a shorter one is kept
  // 1 rev/s sampled at whole seconds, the aliasing the rule prevents: any span, any K.
  for (const double span : {1.0, 2.0, 3.0, 7.5}) {
    for (int k = 2; k <= 12; ++k) {
      const std::vector<double> t = strobeTimes(k, 20.0, span, 1.0);
      for (std::size_t i = 0; i < t.size(); ++i) {
        for (std::size_t j = i + 1; j < t.size(); ++j) {
          const double periods = t[j] - t[i];
          EXPECT_GT(std::abs(periods - std::round(periods)), 1e-9) << "span " << span << ", K = " << k;
        }
      }
    }
  }
}

// The shipped motor-driven linkages declare their period: the strandbeest's crank turns at
// 1 rev/s, the four-bar's at ½ rev/s. A strobe of either shows K phases of one period (not K
// copies of one pose, as exposures a whole period apart would), and the state one period on
// is the same state (the motors hold their speed to a few millimetres).
TEST_F(Render, StrobesOfTheShippedLinkagesShowOnePeriod) {
  for (const auto& [name, period, spacing] : {std::tuple{"strandbeest", 1.0, "every 0.125 s"},
                                              std::tuple{"four_bar", 2.0, "every 0.25 s"}}) {
    const std::string scene = kScenes + name + ".json";
    const Result r = tinkertoy({"render", scene, "--exposures", "8", "--size", "320x240", "-o", output("strobe.png")});
    ASSERT_EQ(r.code, kSuccess) << r.err;
    EXPECT_TRUE(contains(r.out, spacing)) << r.out;
    // The state after one more period.
    const auto finalState = [&](double duration) {
      const std::string summary = output(std::string(name) + std::to_string(duration) + ".json");
      const Result run = tinkertoy({"run", scene, "--duration", std::to_string(duration), "--summary", summary});
      EXPECT_EQ(run.code, kSuccess) << run.err;
      std::ifstream in(summary);
      return nlohmann::json::parse(in)["final_state"];
    };
    const nlohmann::json before = finalState(3.0), after = finalState(3.0 + period);
    for (const auto& [body, state] : before.items()) {
      for (int i = 0; i < 2; ++i) {
        EXPECT_NEAR(state["position"][i].get<double>(), after[body]["position"][i].get<double>(), 3e-3) << name << " " << body;
      }
    }
  }
}

// ---- Trails -----------------------------------------------------------------------------

// A ball thrown sideways at 2 m/s: x = 2t, y = −4.905 t², shown at --time 0.5 at (1, −1.22625).
// A post nailed at the origin, where the ball starts, makes the framing the same with and
// without the trail (which adds nothing outside the box from the post to the ball), so the
// picture without --trails is the control for the same pixels.
// Bounds: x ∈ [0, 1], y ∈ [−1.22625, 0], centre
// (0.5, −0.613125). 400×400: scale = min(352/1, 325.6/1.22625) = 265.525 px/m,
// pixel = (200 + 265.525 (x − 0.5), 185 − 265.525 (y + 0.613125)). Along the path:
//   t = 0.1: (0.2, −0.04905) → (120.34, 35.22)     t = 0.2: (0.4, −0.1962) → (173.45, 74.30)
//   t = 0.3: (0.6, −0.44145) → (226.55, 139.42)    t = 0.4: (0.8, −0.7848) → (279.66, 230.58)
// and the dot at t = 0.5: (332.76, 347.80). The trail is kTrail (190, 60, 150) at alpha
// 200/255, magenta over the grey-white background, (202, 100, 170): red − green > 60 where it
// covers a pixel (0 on the background; rods in compression are blue, not this). The same trail
// is drawn for --trail-point ball, and none along the path for --trail-point post.
TEST_F(Render, TrailsDrawTheProjectilesPath) {
  const std::string scene = writeScene("throw.json", R"({"settings": {"duration": 3},
      "particles": [{"id": "ball", "mass": 1, "position": [0, 0], "velocity": [2, 0]},
                    {"id": "post", "mass": 1, "position": [0, 0]}],
      "constraints": [{"type": "fixed", "particle": "post"}]})");
  const std::pair<double, double> path[] = {{120.34, 35.22}, {173.45, 74.30}, {226.55, 139.42}, {279.66, 230.58}};
  // The most magenta pixel in the 3×3 block around the point: red − green.
  const auto tint = [](const Picture& picture, double px, double py) {
    int most = -255;
    const int cx = static_cast<int>(std::floor(px)), cy = static_cast<int>(std::floor(py));
    for (int y = cy - 1; y <= cy + 1; ++y) {
      for (int x = cx - 1; x <= cx + 1; ++x) most = std::max(most, picture.at(x, y).r - picture.at(x, y).g);
    }
    return most;
  };
  const std::pair<std::vector<std::string>, bool> cases[] = {
      {{"--trails"}, true}, {{}, false}, {{"--trail-point", "ball"}, true}, {{"--trail-point", "post"}, false}};
  for (const auto& [flags, drawn] : cases) {
    SCOPED_TRACE(flags.empty() ? std::string("no trails") : flags.back());
    const std::string png = output("trails.png");
    std::vector<std::string> args = {"render", scene, "--time", "0.5", "--size", "400x400", "-o", png};
    args.insert(args.end(), flags.begin(), flags.end());
    const Result r = tinkertoy(args);
    ASSERT_EQ(r.code, kSuccess) << r.err;
    const Picture picture(png);
    ASSERT_TRUE(picture.ok());
    EXPECT_TRUE(isColour(picture.at(332, 347), kDot));
    for (const auto& [px, py] : path) {
      if (drawn) {
        EXPECT_GT(tint(picture, px, py), 60) << "no trail at " << px << ", " << py;
      } else {
        EXPECT_EQ(tint(picture, px, py), kBackground.r - kBackground.g) << "something at " << px << ", " << py;
      }
    }
  }
}

// A point of a rigid body: BODY:X,Y in its frame, checked against the model, with the reasons
// for a name that is not there (and the likely one), a point on a body with no frame, and
// coordinates that are not numbers.
TEST(TracedPoint, NamesABodysPointOrSaysWhy) {
  const Scene scene = parseScene(R"({"settings": {"formulation": "velocity"},
      "particles": [{"id": "ball", "mass": 1, "position": [0, 0]}],
      "bodies": [{"id": "arm", "type": "rigid", "mass": 1, "position": [1, 0], "shape": {"type": "box", "size": [2, 0.1]}},
                 {"id": "chain", "type": "chain", "pivot": [0, 0], "lengths": [1, 1], "masses": [1, 1], "angles": [0, 0]}]})");
  const Model& model = scene.model;
  EXPECT_EQ(tracedPoint(model, "ball"), BodyPoint(*model.findBody("ball")));
  EXPECT_EQ(tracedPoint(model, "arm"), BodyPoint(*model.findBody("arm")));
  EXPECT_EQ(tracedPoint(model, "arm:1,-0.05"), BodyPoint(*model.findBody("arm"), Eigen::Vector2d(1, -0.05)));
  EXPECT_EQ(tracedPoint(model, "chain"), BodyPoint(*model.findBody("chain"), 1)) << "a chain's tip";
  const auto reason = [&](const std::string& text) {
    try {
      (void)tracedPoint(model, text);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(reason("bal"), "no body 'bal' in the scene; did you mean 'ball'?");
  EXPECT_NE(reason("ball:1,0").find("has no frame"), std::string::npos);
  EXPECT_NE(reason("arm:1").find("expected BODY:X,Y"), std::string::npos);
  EXPECT_NE(reason("arm:1,x").find("expected BODY:X,Y"), std::string::npos);
  EXPECT_NE(reason("arm:nan,0").find("expected BODY:X,Y"), std::string::npos);
}

// ---- Forces ----------------------------------------------------------------------------

// A body that leaves for good is named and left out of the framing. A nailed rod stays from
// (0, 0) to (1, 0) while a stone thrown from (0, 1) ends at (50, 1): outside the square of
// side 4 m about the start's centre (the start spans 1 m). The picture frames the rod alone:
// 1 m wide (its height 0), scale 0.88 × 640 px/m, centre (0.5, 0), so the bob at (1, 0) is at
// pixel (601.6, 225). Framing the stone too would put the bob near the left edge. A stone
// thrown alone is the whole motion: framed, no warning.
TEST_F(Render, ABodyThatLeavesForGoodIsNamedAndNotFramed) {
  const std::string scene = writeScene("thrown.json", R"({"gravity": [0, 0], "settings": {"duration": 1},
      "particles": [{"id": "pivot", "mass": 1, "position": [0, 0]}, {"id": "bob", "mass": 1, "position": [1, 0]},
                    {"id": "stone", "mass": 1, "position": [0, 1], "velocity": [50, 0]}],
      "constraints": [{"type": "fixed", "particle": "pivot"}, {"type": "distance", "a": "pivot", "b": "bob"}]})");
  const std::string png = output("thrown.png");
  Result r = tinkertoy({"render", scene, "--size", "640x480", "-o", png});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  EXPECT_TRUE(contains(r.err, "warning: particle 'stone' leaves the model's neighbourhood for good")) << r.err;
  EXPECT_FALSE(contains(r.err, "'bob'")) << r.err;
  const Picture picture(png);
  ASSERT_TRUE(picture.ok());
  EXPECT_TRUE(isColour(picture.at(601, 225), kDot));

  const std::string alone = writeScene("alone.json", R"({"gravity": [0, 0], "settings": {"duration": 1},
      "particles": [{"id": "stone", "mass": 1, "position": [0, 1], "velocity": [50, 0]}]})");
  r = tinkertoy({"render", alone, "--size", "640x480", "-o", png, "--trails"});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  EXPECT_FALSE(contains(r.err, "warning")) << r.err;
  // The path from (0, 1) to (50, 1) fills the width: the stone ends at 320 + 0.88 × 320 px.
  EXPECT_TRUE(isColour(Picture(png).at(601, 225), kDot));
}

// The shipped hybrid scene stays a mechanism for its whole 10 s: nothing leaves.
TEST_F(Render, TheHybridSceneStaysTogether) {
  const Result r = tinkertoy({"render", kScenes + "hybrid.json", "--size", "320x240", "-o", output("hybrid.png")});
  ASSERT_EQ(r.code, kSuccess) << r.err;
  EXPECT_FALSE(contains(r.err, "leaves")) << r.err;
}

// A 3D scene is seen obliquely by default, and the nearer of two marks is drawn over the
// farther. Two particles 1 m apart along the oblique view's line of sight fall on one picture
// point, which the framing rule puts at the middle of the viewport (320, 225) of a 640×480
// picture; the front one is drawn in full colour, the back one faded 60% into the background
// (style.hpp, atDepth). From the front they are apart, and the middle pixel is background.
TEST_F(Render, A3DSceneIsSeenObliquelyNearOverFar) {
  const Eigen::Vector3d toward = ViewDirection::oblique().toward();
  char text[512];
  std::snprintf(text, sizeof text, R"({"dimension": 3, "gravity": [0, 0, 0], "settings": {"duration": 0.01},
      "particles": [{"id": "back", "mass": 1, "position": [0, 0, 0]},
                    {"id": "front", "mass": 1, "position": [%.17g, %.17g, %.17g]}]})",
                toward.x(), toward.y(), toward.z());
  const std::string scene = writeScene("depth.json", text);
  const Rgb faded = over(kBackground, 0.6, kDot);
  const auto middle = [&](const std::vector<std::string>& extra) {
    std::vector<std::string> args{"render", scene, "--size", "640x480", "-o", output("depth.png")};
    args.insert(args.end(), extra.begin(), extra.end());
    const Result r = tinkertoy(args);
    EXPECT_EQ(r.code, kSuccess) << r.err;
    const Picture picture(output("depth.png"));
    return picture.ok() ? picture.at(320, 225) : Rgb{};
  };
  EXPECT_TRUE(isColour(middle({}), kDot, 2)) << "the front particle is on top";
  EXPECT_FALSE(near(middle({}), faded, 2));
  EXPECT_TRUE(isColour(middle({"--camera", "35,25"}), kDot, 2)) << "--camera 35,25 is the oblique view";
  EXPECT_TRUE(isColour(middle({"--view", "front"}), kBackground));
  // From exactly behind, the particle listed first is the nearer: drawing in the listed order
  // would leave the faded one on top.
  char behind[32];
  std::snprintf(behind, sizeof behind, "%.17g,%.17g", 35.0 + 180.0, -25.0);
  EXPECT_TRUE(isColour(middle({"--camera", behind}), kDot, 2));
}

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
