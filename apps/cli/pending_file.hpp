// PendingFile: an output written under a temporary name beside its final one, and renamed into
// place by commit(). A command that fails part-way, or is interrupted by Ctrl-C (SIGINT),
// SIGTERM or SIGHUP, leaves nothing behind, not a half-written picture or video; one that
// cannot write there fails before doing any work.
#pragma once

#include <filesystem>
#include <memory>
#include <ostream>
#include <string>

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

 private:
  std::filesystem::path target_, partial_;
  bool committed_ = false;
};

// The PendingFile for the output `path` of the -o flag, which must not be the command's
// `input`; when it cannot be created, prints "error: -o: …" to `err` and returns null.
std::unique_ptr<PendingFile> pendingOutput(const std::string& path, const std::string& input, std::ostream& err);

}  // namespace tinkertoy::cli
