// An output written aside and renamed into place (pending_file.hpp).
#include "pending_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <stdexcept>

namespace tinkertoy::cli {

namespace {

// The temporary file to remove if a signal ends the process, kept where a signal handler can
// read it (one output at a time, which is all a command writes).
char gInterrupted[PATH_MAX] = {};
constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP};
struct sigaction gPrevious[std::size(kCleanupSignals)];

extern "C" void removeAndDie(int signal) {
  if (gInterrupted[0] != '\0') ::unlink(gInterrupted);
  ::signal(signal, SIG_DFL);
  ::raise(signal);
}

void removeOnSignals(const std::filesystem::path& file) {
  const std::string name = file.string();
  if (name.size() >= sizeof gInterrupted) return;
  std::memcpy(gInterrupted, name.c_str(), name.size() + 1);
  struct sigaction action {};
  action.sa_handler = removeAndDie;
  for (std::size_t i = 0; i < std::size(kCleanupSignals); ++i) ::sigaction(kCleanupSignals[i], &action, &gPrevious[i]);
}

void stopRemovingOnSignals() {
  if (gInterrupted[0] == '\0') return;
  for (std::size_t i = 0; i < std::size(kCleanupSignals); ++i) ::sigaction(kCleanupSignals[i], &gPrevious[i], nullptr);
  gInterrupted[0] = '\0';
}

std::string cannotWrite(const std::filesystem::path& target, const std::string& reason) {
  std::string message = target.string();
  message.insert(0, "cannot write '").append("': ").append(reason);
  return message;
}

}  // namespace

PendingFile::PendingFile(std::filesystem::path target) : target_(std::move(target)) {
  if (target_.filename().empty()) throw std::runtime_error(cannotWrite(target_, "it names a directory, not a file"));
  if (std::filesystem::is_directory(target_)) throw std::runtime_error(cannotWrite(target_, "it is a directory"));
  // A unique hidden name beside the target (so two commands writing the same file do not
  // share it), short enough to fit however long the target's name is.
  std::string name = target_.filename().string().substr(0, 100);
  name.insert(0, 1, '.');
  name += ".XXXXXX";
  std::string pattern = (target_.parent_path() / name).string();
  const int fd = ::mkstemp(pattern.data());
  if (fd < 0) throw std::runtime_error(cannotWrite(target_, std::strerror(errno)));
  // mkstemp makes the file private (0600); an output gets the permissions of any new file.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  ::close(fd);
  partial_ = pattern;
  removeOnSignals(partial_);
}

PendingFile::~PendingFile() {
  stopRemovingOnSignals();
  if (committed_) return;
  std::error_code ignored;
  std::filesystem::remove(partial_, ignored);
}

std::string PendingFile::commit() {
  std::error_code error;
  if (std::filesystem::file_size(partial_, error) == 0 && !error) {
    return cannotWrite(target_, "the output came out empty");
  }
  std::filesystem::rename(partial_, target_, error);
  if (error) return cannotWrite(target_, error.message());
  committed_ = true;
  return {};
}

std::unique_ptr<PendingFile> pendingOutput(const std::string& path, const std::string& input, std::ostream& err) {
  std::error_code ignored;
  if (std::filesystem::equivalent(path, input, ignored)) {
    err << "error: -o: '" << path << "' is the input itself; writing there would destroy it\n";
    return nullptr;
  }
  try {
    return std::make_unique<PendingFile>(path);
  } catch (const std::runtime_error& e) {
    err << "error: -o: " << e.what() << "\n";
    return nullptr;
  }
}

}  // namespace tinkertoy::cli
