// An output written aside and renamed into place (pending_file.hpp).
#include "pending_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace tinkertoy::cli {

namespace {

// The temporary files to remove if a signal ends the process, kept where a signal handler can
// read them: a command writes at most two outputs at once (run's --trajectory and --summary).
constexpr std::size_t kMostPending = 2;
char gInterrupted[kMostPending][PATH_MAX] = {};
constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP};
struct sigaction gPrevious[std::size(kCleanupSignals)];

extern "C" void removeAndDie(int signal) {
  for (const char* file : gInterrupted) {
    if (file[0] != '\0') ::unlink(file);
  }
  ::signal(signal, SIG_DFL);
  ::raise(signal);
}

bool anyPending() {
  return std::any_of(std::begin(gInterrupted), std::end(gInterrupted), [](const char* f) { return f[0] != '\0'; });
}

void removeOnSignals(const std::filesystem::path& file) {
  const std::string name = file.string();
  auto* slot = std::find_if(std::begin(gInterrupted), std::end(gInterrupted), [](const char* f) { return f[0] == '\0'; });
  if (name.size() >= PATH_MAX || slot == std::end(gInterrupted)) return;
  const bool first = !anyPending();
  std::memcpy(*slot, name.c_str(), name.size() + 1);
  if (!first) return;
  struct sigaction action {};
  action.sa_handler = removeAndDie;
  for (std::size_t i = 0; i < std::size(kCleanupSignals); ++i) ::sigaction(kCleanupSignals[i], &action, &gPrevious[i]);
}

void stopRemovingOnSignals(const std::filesystem::path& file) {
  for (char* slot : gInterrupted) {
    if (file.string() == slot) slot[0] = '\0';
  }
  if (anyPending()) return;
  for (std::size_t i = 0; i < std::size(kCleanupSignals); ++i) ::sigaction(kCleanupSignals[i], &gPrevious[i], nullptr);
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
  // A device, a pipe or a socket (/dev/stdout, /dev/null) is written as it is: a file renamed
  // over it would replace it.
  std::error_code error;
  const std::filesystem::file_status status = std::filesystem::status(target_, error);
  if (!error && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
    partial_ = target_;
    direct_ = true;
    return;
  }
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
  if (direct_) return;
  stopRemovingOnSignals(partial_);
  if (committed_) return;
  std::error_code ignored;
  std::filesystem::remove(partial_, ignored);
}

std::string PendingFile::commit() {
  if (direct_) return {};
  std::error_code error;
  if (std::filesystem::file_size(partial_, error) == 0 && !error) {
    return cannotWrite(target_, "the output came out empty");
  }
  std::filesystem::rename(partial_, target_, error);
  if (error) return cannotWrite(target_, error.message());
  committed_ = true;
  return {};
}

std::string PendingFile::land(std::string_view contents) {
  std::ofstream file(partial_, std::ios::binary);
  file.write(contents.data(), static_cast<std::streamsize>(contents.size()));
  errno = 0;
  file.close();
  if (!file) return cannotWrite(target_, errno != 0 ? std::strerror(errno) : "the write failed");
  return commit();
}

std::unique_ptr<PendingFile> pendingOutput(const std::string& path, const std::vector<std::string>& others,
                                           const std::string& flag, std::ostream& err) {
  // The same file, by identity where it exists, else by its absolute, normalized name.
  const auto same = [](const std::filesystem::path& a, const std::filesystem::path& b) {
    std::error_code error;
    if (std::filesystem::equivalent(a, b, error)) return true;
    const auto canonical = [](const std::filesystem::path& p) {
      std::error_code ignored;
      return std::filesystem::weakly_canonical(std::filesystem::absolute(p, ignored), ignored);
    };
    return canonical(a) == canonical(b);
  };
  for (const std::string& other : others) {
    if (other.empty() || !same(path, other)) continue;
    err << "error: " << flag << ": '" << path << "' is "
        << (&other == &others.front() ? "the input itself" : "where another output goes") << "; writing there would destroy it\n";
    return nullptr;
  }
  try {
    return std::make_unique<PendingFile>(path);
  } catch (const std::runtime_error& e) {
    err << "error: " << flag << ": " << e.what() << "\n";
    return nullptr;
  }
}

}  // namespace tinkertoy::cli
