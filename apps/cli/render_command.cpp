// `tinkertoy render` (render_command.hpp).
#include "render_command.hpp"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <new>
#include <vector>

#include "cli.hpp"
#include "common/closest_match.hpp"
#include "model_contents.hpp"
#include "output_format.hpp"
#include "painter.hpp"
#include "tinkertoy/view/default_view.hpp"
#include "pending_file.hpp"
#include "progress_bar.hpp"
#include "recording.hpp"
#include "tinkertoy/view/style.hpp"
#include "video_encoder.hpp"

namespace tinkertoy::cli {

namespace {

using Surface = std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)>;
using Context = std::unique_ptr<cairo_t, decltype(&cairo_destroy)>;

constexpr double kMargin = 0.06;   // of the picture, on every side of the framed scene
constexpr int kMaxVideoFps = 240;  // beyond it frames only repeat steps and fill the memory
constexpr int kMaxExposures = 1000;

// Flags that do not fit the output, or a missing ffmpeg: the reason, or "" when all is well.
std::string checkOptions(const RenderOptions& o, OutputFormat format, const std::string& ffmpeg) {
  if (isVideo(format)) {
    if (o.time) return "--time picks the moment of a still picture (.svg, .png, .pdf); a video shows 0 to --duration";
    if (o.exposures > 1) return "--exposures overlays states in a still picture (.svg, .png, .pdf), not in a video";
    if (o.span) return "--span spaces a still's exposures (.svg, .png, .pdf); a video shows 0 to --duration";
    if (format == OutputFormat::Gif && o.fps > VideoEncoder::kMaxGifFps) {
      return "--fps: a GIF plays in real time only up to " + std::to_string(VideoEncoder::kMaxGifFps) +
             " fps (its frame delays are whole hundredths of a second), got " + std::to_string(o.fps);
    }
    if (o.fps > kMaxVideoFps) {
      return "--fps: at most " + std::to_string(kMaxVideoFps) + " frames per second, got " + std::to_string(o.fps);
    }
    if (format == OutputFormat::Mp4 && (o.size.width % 2 != 0 || o.size.height % 2 != 0)) {
      return "--size: H.264 video needs an even width and height, got " + std::to_string(o.size.width) + "x" +
             std::to_string(o.size.height);
    }
    if (ffmpeg.empty()) return "-o " + o.output + ": writing video " + missingProgram("ffmpeg", "ffmpeg");
  } else if (o.exposures > kMaxExposures) {
    return "--exposures: at most " + std::to_string(kMaxExposures) + ", got " + std::to_string(o.exposures);
  } else if (o.span && o.exposures == 1) {
    return "--span spaces the exposures of a strobe: give --exposures K with K of 2 or more";
  }
  return {};
}

// The title as valid UTF-8, which cairo's text needs: each byte outside a well-formed sequence
// (a file name can hold any) becomes '?'.
std::string printable(const std::string& text) {
  std::string result;
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const std::size_t length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : (lead >> 3) == 0x1E ? 4 : 0;
    bool valid = length > 0 && i + length <= text.size();
    for (std::size_t k = 1; valid && k < length; ++k) valid = (static_cast<unsigned char>(text[i + k]) >> 6) == 0x2;
    if (valid) {
      result.append(text, i, length);
      i += length;
    } else {
      result += '?';
      ++i;
    }
  }
  return result;
}

// How many pictures: a video's frames, one for each 1/fps of `end` (s), or a still's exposures.
double pictureCount(const RenderOptions& o, OutputFormat format, double end) {
  return isVideo(format) ? std::max(1.0, std::round(end * o.fps)) : o.exposures;
}

// The simulated times of the pictures: a video's frames at k/fps, a still's one moment, or a
// strobe's exposures.
std::vector<double> frameTimes(const RenderOptions& o, OutputFormat format, double end, std::optional<double> period) {
  std::vector<double> times;
  if (isVideo(format)) {
    const auto count = static_cast<long>(pictureCount(o, format, end));
    for (long k = 0; k < count; ++k) times.push_back(static_cast<double>(k) / o.fps);
  } else if (o.exposures == 1) {
    times.push_back(end);
  } else {
    times = strobeTimes(o.exposures, end, o.span, period);
  }
  return times;
}

std::string timeLabel(double time) {
  char text[48];
  std::snprintf(text, sizeof text, "t = %.3f s", time);
  return text;
}

// The ghost run's picture at frame k, if it got that far.
const Sketch* ghostAt(const Recording* ghost, std::size_t k) {
  return ghost && k < ghost->frames.size() ? &ghost->frames[k].sketch : nullptr;
}

// A still: every exposure, the earlier ones fainter, over the trails up to the last; the ghost's
// last exposure over them.
void drawStill(cairo_t* cr, const Recording& recording, const Recording* ghost, const Camera& camera,
               const PaintScale& scale, const std::string& title) {
  Painter painter(cr, camera, scale);
  painter.background();
  const Frame& last = recording.frames.back();
  painter.trails(recording.trails, last.time, last.trailEnds);
  const std::size_t n = recording.frames.size();
  for (std::size_t j = 0; j < n; ++j) {
    const double age = n > 1 ? static_cast<double>(n - 1 - j) / static_cast<double>(n - 1) : 0.0;
    painter.sketch(recording.frames[j].sketch, 1.0 - 0.8 * age);
  }
  if (ghost && !ghost->frames.empty()) painter.ghost(ghost->frames.back().sketch);
  std::string time = timeLabel(last.time);
  if (n > 1) {
    char text[64];
    std::snprintf(text, sizeof text, "t = %g to %.3g s, %zu exposures", recording.frames.front().time, last.time, n);
    time = text;
  }
  painter.legend(time, title);
}

// Draws a still into `file`: "" on success, otherwise what went wrong.
std::string writeStill(OutputFormat format, const std::filesystem::path& file, PixelSize size,
                       const std::function<void(cairo_t*)>& draw) {
  const double w = size.width, h = size.height;
  Surface surface(nullptr, cairo_surface_destroy);
  if (format == OutputFormat::Png) {
    surface.reset(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, size.width, size.height));
  } else if (format == OutputFormat::Svg) {
    surface.reset(cairo_svg_surface_create(file.c_str(), w, h));
    cairo_svg_surface_set_document_unit(surface.get(), CAIRO_SVG_UNIT_PX);
  } else {
    surface.reset(cairo_pdf_surface_create(file.c_str(), w, h));
  }
  cairo_status_t status = CAIRO_STATUS_SUCCESS;
  {
    const Context cr(cairo_create(surface.get()), cairo_destroy);
    draw(cr.get());
    status = cairo_status(cr.get());
  }
  if (status == CAIRO_STATUS_SUCCESS && format == OutputFormat::Png) {
    status = cairo_surface_write_to_png(surface.get(), file.c_str());
  } else if (status == CAIRO_STATUS_SUCCESS) {
    cairo_surface_finish(surface.get());
    status = cairo_surface_status(surface.get());
  }
  if (status == CAIRO_STATUS_NO_MEMORY) throw std::bad_alloc();  // the command's out-of-memory report
  return status == CAIRO_STATUS_SUCCESS ? std::string() : cairo_status_to_string(status);
}

// Draws every frame and pipes it to ffmpeg: "" on success, otherwise what went wrong.
std::string writeVideo(const std::string& ffmpeg, OutputFormat format, const std::filesystem::path& file,
                       const RenderOptions& o, const Recording& recording, const Recording* ghost, const Camera& camera,
                       const PaintScale& scale, const std::string& title, ProgressBar& progress) {
  std::optional<VideoEncoder> encoder;
  try {
    encoder.emplace(ffmpeg, format == OutputFormat::Mp4 ? VideoEncoder::Format::Mp4 : VideoEncoder::Format::Gif, file,
                    o.size, o.fps);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  const Surface surface(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, o.size.width, o.size.height),
                        cairo_surface_destroy);
  for (std::size_t k = 0; k < recording.frames.size(); ++k) {
    const Frame& frame = recording.frames[k];
    const Context cr(cairo_create(surface.get()), cairo_destroy);  // a fresh state for every frame
    Painter painter(cr.get(), camera, scale);
    painter.background();
    if (!recording.trails.empty()) painter.trails(recording.trails, frame.time, frame.trailEnds);
    painter.sketch(frame.sketch);
    if (const Sketch* g = ghostAt(ghost, k)) painter.ghost(*g);
    painter.legend(timeLabel(frame.time), title);
    if (cairo_status(cr.get()) == CAIRO_STATUS_NO_MEMORY) throw std::bad_alloc();
    if (cairo_status(cr.get()) != CAIRO_STATUS_SUCCESS) return cairo_status_to_string(cairo_status(cr.get()));
    if (!encoder->add(surface.get())) break;
    progress.update(k + 1, frame.time);
  }
  std::string problem = encoder->finish();  // ffmpeg may still be encoding: the bar stays until it is done
  progress.finish();
  return problem;
}

}  // namespace

BodyPoint tracedPoint(const Model& model, const std::string& text) {
  const std::size_t colon = text.find(':');
  const std::string name = text.substr(0, colon);
  const std::optional<BodyId> body = model.findBody(name);
  if (!body) {
    std::vector<std::string> names;
    for (std::size_t i = 0; i < model.bodyCount(); ++i) names.push_back(model.name(model.bodyAt(i)));
    const std::vector<std::string_view> known(names.begin(), names.end());
    const std::optional<std::string_view> match = closestMatch(name, known);
    throw std::invalid_argument("no body '" + name + "' in the scene" +
                                (match ? "; did you mean '" + std::string(*match) + "'?" : std::string()));
  }
  const Body& b = model.body(*body);
  if (colon == std::string::npos) return {*body, b.hasFrame() ? 0 : b.pointCount() - 1};
  if (!b.hasFrame()) {
    throw std::invalid_argument(model.describe(*body) + " has no frame: a point X,Y is for rigid bodies; give the name alone");
  }
  const std::optional<std::pair<double, double>> site = readNumberPair(text.substr(colon + 1));
  if (site && std::isfinite(site->first) && std::isfinite(site->second)) {
    return {*body, Eigen::Vector2d(site->first, site->second)};
  }
  throw std::invalid_argument("expected BODY:X,Y with X and Y finite numbers in metres, got '" + text + "'");
}

std::vector<double> strobeTimes(int exposures, double end, std::optional<double> span, std::optional<double> period) {
  double s = std::min(span.value_or(period.value_or(1.0)), end);
  const double k = exposures;
  if (period) s = std::min(s, *period * (k - 1.0) / k);
  std::vector<double> times;
  for (int j = 0; j < exposures; ++j) times.push_back(end - s * (k - 1.0 - j) / (k - 1.0));
  return times;
}

int renderScene(const RenderOptions& o, std::ostream& out, std::ostream& err) {
  const std::optional<OutputFormat> format = outputFormat(o.output);
  if (!format) {
    err << "error: -o " << o.output << ": unknown output type '" << std::filesystem::path(o.output).extension().string()
        << "'; use .svg, .png, .pdf, .mp4 or .gif\n";
    return kBadInput;
  }
  const std::string ffmpeg = isVideo(*format) ? findProgram("ffmpeg") : std::string();
  if (const std::string problem = checkOptions(o, *format, ffmpeg); !problem.empty()) {
    err << "error: " << problem << "\n";
    return kBadInput;
  }
  std::optional<SimulationFlags> ghostFlags;
  if (o.ghost && !(ghostFlags = parseFlagText("--ghost", *o.ghost, err))) return kBadInput;
  const std::unique_ptr<SceneRun> run = startSceneRun(o.scene, o.simulation, err);
  if (!run) return kBadInput;
  const Scene& scene = run->scene;
  std::unique_ptr<SceneRun> ghostRun;
  if (ghostFlags) {
    std::ostringstream problems;
    ghostRun = startSceneRun(o.scene, *ghostFlags, problems);
    if (!ghostRun) {
      err << "error: --ghost: " << problems.str().substr(problems.str().rfind("error: ", 0) == 0 ? 7 : 0);
      return kBadInput;
    }
  }
  if (o.time) {
    if (const std::string problem = checkStepCount(*o.time, scene.settings.dt, "--time", o.simulation.dt ? "--dt" : "settings.dt");
        !problem.empty()) {
      err << "error: " << problem << "\n";
      return kBadInput;
    }
  }
  if (scene.model.dimension() == 2 && o.view && (o.view->azimuth != 0.0 || o.view->elevation != 0.0)) {
    err << "error: --view/--camera: " << o.scene << " is a 2D scene, drawn in its own plane (the front view)\n";
    return kBadInput;
  }
  if (scene.model.dimension() == 2 && o.perspective) {
    err << "error: --perspective: " << o.scene << " is a 2D scene, drawn in its own plane without perspective\n";
    return kBadInput;
  }
  std::vector<BodyPoint> traced;
  for (const std::string& text : o.trailPoints) {
    try {
      traced.push_back(tracedPoint(scene.model, text));
    } catch (const std::invalid_argument& e) {
      err << "error: --trail-point " << text << ": " << e.what() << "\n";
      return kBadInput;
    }
  }
  const double end = isVideo(*format) ? scene.duration : o.time.value_or(scene.duration);
  ViewDirection view = o.view.value_or(defaultView(scene.model));
  if (o.perspective) view = inPerspective(view, scene.model);
  const SketchOptions sketchOptions{.constraintForces = o.forces, .contacts = o.contacts, .view = view};
  if (const std::string problem = checkFrameMemory(sketch(scene.model, &run->simulator, sketchOptions),
                                                   pictureCount(o, *format, end));
      !problem.empty()) {
    err << "error: " << (isVideo(*format) ? "the video's --duration x --fps: " : "--exposures: ") << problem << "\n";
    return kBadInput;
  }
  if (ghostRun) {
    if (const std::string problem = checkStepCount(end, ghostRun->scene.settings.dt, "the picture's end",
                                                   ghostFlags->dt ? "--ghost's --dt" : "settings.dt");
        !problem.empty()) {
      err << "error: --ghost: " << problem << "\n";
      return kBadInput;
    }
  }
  const std::vector<double> times = frameTimes(o, *format, end, scene.period);
  const std::unique_ptr<PendingFile> file = pendingOutput(o.output, {o.scene}, "-o", err);
  if (!file) return kBadInput;

  ProgressBar simulating(err, o.progress, "simulating", stepsToReach(end, scene.settings.dt));
  Recording recording = record(*run, times, end,
                               {.sketch = sketchOptions, .trails = o.trails || !traced.empty(), .traced = traced}, simulating);
  if (!recording.failure.empty() && !isVideo(*format)) {
    // A still after a blow-up shows the last good state.
    recording.frames.push_back({scene.model.time(), sketch(scene.model, &run->simulator, sketchOptions)});
  }
  std::optional<Recording> ghost;
  if (ghostRun) {
    ProgressBar ghostly(err, o.progress, "ghost     ", stepsToReach(end, ghostRun->scene.settings.dt));
    ghost = record(*ghostRun, times, end, {.sketch = sketchOptions}, ghostly);
    if (!ghost->failure.empty()) {
      err << "warning: --ghost: " << ghost->failure << "; the ghost is drawn up to t = " << ghostRun->scene.model.time()
          << " s, its last good state\n";
      if (!isVideo(*format)) {
        ghost->frames.push_back({ghostRun->scene.model.time(), sketch(ghostRun->scene.model, &ghostRun->simulator, sketchOptions)});
      }
    }
  }

  const double unit = std::max(1.0, std::min(o.size.width, o.size.height) / 720.0);
  const Eigen::Vector2d viewport(o.size.width, o.size.height - legendHeight(unit));
  // Force arrows have a length in pixels, up to kLongestArrow: the margin leaves room for them.
  const double margin = o.forces ? std::max(kMargin, (kLongestArrow + 10.0) * unit / viewport.minCoeff()) : kMargin;
  Framing framing = recording.framing();
  if (ghost) framing.bounds.add(ghost->framing().bounds);  // the ghost stays in the picture too
  if (!framing.bounds.empty() && !(framing.bounds.size().allFinite() && framing.bounds.center().allFinite())) {
    // Finite points farther apart than a double measures: no camera frames them, and the
    // scale bar would read "inf m".
    const Bounds& b = framing.bounds;
    err << "error: " << o.scene << ": the picture would span from (" << b.min.x() << ", " << b.min.y() << ") to ("
        << b.max.x() << ", " << b.max.y() << ") m, farther than a double measures; it cannot be framed "
        << "(scale the scene's lengths down)\n";
    return kBadInput;
  }
  for (const BodyId body : framing.departed) {
    err << "warning: " << scene.model.describe(body) << " leaves the model's neighbourhood for good (it ends outside "
        << Recording::kNeighbourhood << "x the extent of the start): the picture frames the part that stays\n";
  }
  const Camera camera = Camera::frame(framing.bounds, viewport, std::min(margin, 0.25));
  const PaintScale scale = measureScale(recording.frames, unit);
  const std::string title = printable((scene.name.empty() ? std::filesystem::path(o.scene).stem().string() : scene.name) +
                                      (o.ghost ? "; ghost: " + (o.ghost->empty() ? std::string("the scene's settings") : *o.ghost)
                                               : std::string()));
  const Recording* ghostRecording = ghost ? &*ghost : nullptr;

  std::string problem;
  if (isVideo(*format)) {
    ProgressBar encoding(err, o.progress, "encoding  ", recording.frames.size(), "frames");
    problem = writeVideo(ffmpeg, *format, file->path(), o, recording, ghostRecording, camera, scale, title, encoding);
  } else {
    problem = writeStill(*format, file->path(), o.size,
                         [&](cairo_t* cr) { drawStill(cr, recording, ghostRecording, camera, scale, title); });
  }
  if (problem.empty()) problem = file->commit();
  if (!problem.empty()) {
    err << "error: -o " << o.output << ": " << problem << "\n";
    return kOutputFailed;
  }

  out << "wrote " << o.output << ": " << o.size.width << "x" << o.size.height;
  if (isVideo(*format)) {
    out << ", " << counted(recording.frames.size(), "frame") << " at " << o.fps << " fps";
  } else {
    const std::size_t n = recording.frames.size();
    if (n > 1) {
      // The spacing asked for; each exposure shows the first step at or after its time.
      out << ", t = " << recording.frames.front().time << " to " << recording.frames.back().time << " s, " << n
          << " exposures every " << (times.back() - times.front()) / static_cast<double>(times.size() - 1) << " s";
    } else {
      out << ", t = " << recording.frames.back().time << " s";
    }
  }
  out << " (" << readableSize(std::filesystem::file_size(o.output)) << ")\n";
  if (!recording.failure.empty()) {
    err << "error: " << recording.failure << "\n";
    err << o.output << " shows the motion up to t = " << scene.model.time() << " s, the last good state\n";
    return kBlowUp;
  }
  return kSuccess;
}

}  // namespace tinkertoy::cli
