// An output written aside and renamed into place (pending_file.hpp).
#include "pending_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace tinkertoy::cli {

PendingFile::PendingFile(std::filesystem::path target) : target_(std::move(target)) {
  if (target_.filename().empty()) throw std::runtime_error("'" + target_.string() + "' names a directory, not a file");
  if (std::filesystem::is_directory(target_)) throw std::runtime_error("'" + target_.string() + "' is a directory");
  std::string name = target_.filename().string();
  name.insert(0, 1, '.');
  name += ".partial";
  partial_ = target_.parent_path() / name;
  std::ofstream probe(partial_, std::ios::binary | std::ios::trunc);
  if (!probe) {
    const std::string reason = std::strerror(errno);
    throw std::runtime_error("cannot write '" + target_.string() + "': " + reason);
  }
}

PendingFile::~PendingFile() {
  if (committed_) return;
  std::error_code ignored;
  std::filesystem::remove(partial_, ignored);
}

void PendingFile::commit() {
  std::error_code error;
  std::filesystem::rename(partial_, target_, error);
  if (error) throw std::runtime_error("cannot write '" + target_.string() + "': " + error.message());
  committed_ = true;
}

std::unique_ptr<PendingFile> pendingOutput(const std::string& path, std::ostream& err) {
  try {
    return std::make_unique<PendingFile>(path);
  } catch (const std::runtime_error& e) {
    err << "error: -o: " << e.what() << "\n";
    return nullptr;
  }
}

}  // namespace tinkertoy::cli
