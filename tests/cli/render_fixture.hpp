// What the render tests share: the scratch directory with an out/ for the outputs, a PNG
// decoded by cairo, and colour comparisons.
//
// The framing rule (render_command.cpp, view/camera.hpp) that the pixel tests work from: a
// W×H picture has unit u = max(1, min(W, H)/720) and a legend strip of round(30 u) px at the
// bottom; the scene is framed in the viewport (W, H − round(30 u)) by
// Camera::frame(bounds, viewport, 0.06), bounds being the union of everything drawn in every
// frame and trail, each side shorter than 1 m widened to 1 m about its middle. So
//   scale = min(0.88 W / width_m, 0.88 (H − round(30 u)) / height_m)  px/m,
//   pixel = (W/2 + scale (x − cx), (H − round(30 u))/2 − scale (y − cy)),
// with (cx, cy) the middle of the bounds. Pixel (i, j) covers [i, i+1] × [j, j+1].
#pragma once

#include <cairo.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include "cli_fixture.hpp"
#include "tinkertoy/view/style.hpp"
#include "tinkertoy/view/view_direction.hpp"

namespace tinkertoy::cli {

inline const std::string kPendulum = kScenes + "pendulum.json";

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

struct Rgb {
  int r = 0, g = 0, b = 0;
};

inline std::ostream& operator<<(std::ostream& os, const Rgb& c) {
  return os << "(" << c.r << ", " << c.g << ", " << c.b << ")";
}

inline Rgb rgb(Colour c) { return {c.r, c.g, c.b}; }

// The straight blend of `front` at `opacity` over `back`, as cairo composites it.
inline Rgb over(Rgb front, double opacity, Rgb back) {
  const auto blend = [opacity](int f, int b) {
    return static_cast<int>(std::lround(opacity * f + (1.0 - opacity) * b));
  };
  return {blend(front.r, back.r), blend(front.g, back.g), blend(front.b, back.b)};
}

inline const Rgb kBackground = rgb(colours::kBackground);  // (247, 247, 242)
inline const Rgb kDot = rgb(colours::kDot);                // (28, 45, 90)
inline const Rgb kForce = rgb(colours::kForce);            // (44, 160, 44)

inline bool near(Rgb actual, Rgb expected, int tolerance) {
  return std::abs(actual.r - expected.r) <= tolerance && std::abs(actual.g - expected.g) <= tolerance &&
         std::abs(actual.b - expected.b) <= tolerance;
}

inline ::testing::AssertionResult isColour(Rgb actual, Rgb expected, int tolerance = 3) {
  if (near(actual, expected, tolerance)) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "pixel is " << actual << ", expected " << expected << " ± " << tolerance;
}

// A PNG decoded by cairo.
class Picture {
 public:
  explicit Picture(const std::string& path)
      : surface_(cairo_image_surface_create_from_png(path.c_str()), cairo_surface_destroy) {
    if (ok()) cairo_surface_flush(surface_.get());
  }
  [[nodiscard]] bool ok() const { return cairo_surface_status(surface_.get()) == CAIRO_STATUS_SUCCESS; }
  [[nodiscard]] int width() const { return cairo_image_surface_get_width(surface_.get()); }
  [[nodiscard]] int height() const { return cairo_image_surface_get_height(surface_.get()); }
  // The pixel at column x, row y (every pixel the renderer draws is opaque, so no
  // un-premultiplying is needed).
  [[nodiscard]] Rgb at(int x, int y) const {
    EXPECT_TRUE(x >= 0 && y >= 0 && x < width() && y < height()) << x << ", " << y;
    const unsigned char* data = cairo_image_surface_get_data(surface_.get());
    const int stride = cairo_image_surface_get_stride(surface_.get());
    std::uint32_t pixel = 0;
    std::memcpy(&pixel, data + static_cast<std::ptrdiff_t>(y) * stride + static_cast<std::ptrdiff_t>(x) * 4,
                sizeof pixel);
    return {static_cast<int>((pixel >> 16) & 0xff), static_cast<int>((pixel >> 8) & 0xff),
            static_cast<int>(pixel & 0xff)};
  }

 private:
  std::unique_ptr<cairo_surface_t, decltype(&cairo_surface_destroy)> surface_;
};

// The scratch directory holds the scenes; outputs go in out/, which the bad-input tests check
// is left empty.
class Render : public Cli {
 protected:
  void SetUp() override {
    Cli::SetUp();
    fs::create_directories(dir_ / "out");
  }
  std::string output(const std::string& name) const { return (dir_ / "out" / name).string(); }
  // Every entry in out/, hidden ones (the temporary ".x.png.XXXXXX") included.
  std::vector<std::string> leftovers() const {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir_ / "out")) names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }
};

}  // namespace tinkertoy::cli
