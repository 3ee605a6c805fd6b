// RecentFiles: a short list in a text file (recent_files.hpp).
#include "recent_files.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>

namespace tinkertoy::studio {

namespace {

constexpr std::size_t kLength = 10;

std::optional<std::filesystem::path> configDirectory() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) return std::filesystem::path(xdg) / "tinkertoy";
  if (const char* home = std::getenv("HOME"); home && *home) return std::filesystem::path(home) / ".config" / "tinkertoy";
  return std::nullopt;
}

}  // namespace

RecentFiles::RecentFiles(bool persist) {
  if (!persist) return;
  const auto directory = configDirectory();
  if (!directory) return;
  store_ = *directory / "studio-recent.txt";
  std::ifstream in(*store_);
  for (std::string line; std::getline(in, line) && files_.size() < kLength;) {
    if (!line.empty() && std::filesystem::exists(line)) files_.emplace_back(line);
  }
}

void RecentFiles::add(const std::filesystem::path& file) {
  std::error_code error;
  const std::filesystem::path absolute = std::filesystem::absolute(file, error);
  const std::filesystem::path& entry = error ? file : absolute;
  files_.erase(std::remove(files_.begin(), files_.end(), entry), files_.end());
  files_.insert(files_.begin(), entry);
  if (files_.size() > kLength) files_.resize(kLength);
  if (!store_) return;
  std::filesystem::create_directories(store_->parent_path(), error);
  std::ofstream out(*store_);
  for (const auto& f : files_) out << f.string() << '\n';
  if (!out) {
    std::cerr << "tinkertoy-studio: cannot keep the recent-files list in " << store_->string() << '\n';
    store_.reset();  // say it once
  }
}

}  // namespace tinkertoy::studio
