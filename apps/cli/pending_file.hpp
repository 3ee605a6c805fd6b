// PendingFile: an output written under a temporary name beside its final one, and renamed into
// place by commit(). A command that fails part-way, or is interrupted by Ctrl-C (SIGINT),
// SIGTERM or SIGHUP, leaves nothing behind, not a half-written picture or video; one that
// cannot write there fails before doing any work. A target that is a device, a pipe or a socket
// (/dev/stdout) is written in place instead: renaming a file over it would replace it.
#pragma once

#include <filesystem>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace tinkertoy::cli {

class PendingFile {
 public:
  // Creates the (empty) temporary file ".<name>.XXXXXX" in the target's directory. Throws
  // std::runtime_error naming the target and the reason when that is not possible.
  explicit PendingFile(std::filesystem::path target);
  // Removes the temporary file unless committed.
  ~PendingFile();
  PendingFile(const PendingFile&) = delete;
  PendingFile& operator=(const PendingFile&) = delete;

  // Where to write the output for now.
  [[nodiscard]] const std::filesystem::path& path() const { return partial_; }
  // Moves it to the target, replacing any file there: "" on success, otherwise why not (the
  // output is empty, so whatever wrote it failed quietly, or it cannot be moved).
  [[nodiscard]] std::string commit();
  // Writes `contents` to path() and commits: "" on success, otherwise why not.
  [[nodiscard]] std::string land(std::string_view contents);

 private:
  std::filesystem::path target_, partial_;
  bool committed_ = false;
  bool direct_ = false;  // the target is a device, pipe or socket, written in place
};

// The PendingFile for the output `path` given by `flag`, which must not be the same file as any
// of `others` (the command's input first, then its other outputs; empty ones are skipped); when
// it cannot be created, prints "error: <flag>: …" to `err` and returns null.
std::unique_ptr<PendingFile> pendingOutput(const std::string& path, const std::vector<std::string>& others,
                                           const std::string& flag, std::ostream& err);

}  // namespace tinkertoy::cli
