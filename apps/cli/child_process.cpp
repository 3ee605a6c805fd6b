// A program fed through a pipe (child_process.hpp).
#include "child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>

extern char** environ;

namespace tinkertoy::cli {

namespace {

constexpr std::size_t kKeptMessages = 16 * 1024;

void closeFd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

void makeNonBlocking(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

}  // namespace

std::string findProgram(const std::string& name) {
  const char* path = std::getenv("PATH");
  if (!path) return {};
  std::string_view rest = path;
  while (true) {
    const std::size_t colon = rest.find(':');
    std::filesystem::path candidate(rest.substr(0, colon));
    if (candidate.empty()) candidate = ".";
    candidate /= name;
    struct stat info {};
    if (::stat(candidate.c_str(), &info) == 0 && S_ISREG(info.st_mode) && ::access(candidate.c_str(), X_OK) == 0) {
      return candidate.string();
    }
    if (colon == std::string_view::npos) return {};
    rest.remove_prefix(colon + 1);
  }
}

std::string missingProgram(const std::string& name, const std::string& package) {
  std::string message = "needs the " + name;
  message.append(" program, which is not on PATH; install the Debian package ")
      .append(package)
      .append(" (apt-get install ")
      .append(package)
      .append(", or scripts/install-deps.sh)");
  return message;
}

ChildProcess::ChildProcess(const std::string& program, const std::vector<std::string>& args) {
  int in[2], out[2];
  if (::pipe2(in, O_CLOEXEC) != 0) throw std::runtime_error(std::string("cannot make a pipe: ") + std::strerror(errno));
  if (::pipe2(out, O_CLOEXEC) != 0) {
    ::close(in[0]);
    ::close(in[1]);
    throw std::runtime_error(std::string("cannot make a pipe: ") + std::strerror(errno));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in[0], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDERR_FILENO);
  std::vector<char*> argv{const_cast<char*>(program.c_str())};
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const int failed = ::posix_spawn(&pid_, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(in[0]);
  ::close(out[1]);
  input_ = in[1];
  output_ = out[0];
  if (failed != 0) {
    closeFd(input_);
    closeFd(output_);
    pid_ = -1;
    std::string message = program;
    message.insert(0, "cannot start ").append(": ").append(std::strerror(failed));
    throw std::runtime_error(message);
  }
  makeNonBlocking(input_);
  makeNonBlocking(output_);
  // A child that exits early must not end us with SIGPIPE: write() then fails with EPIPE.
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, &previousSigpipe_);
  // With SIGCHLD ignored (inherited from whoever started us) the child would be reaped
  // unseen and its exit status lost; the default keeps it for waitpid.
  struct sigaction standard {};
  standard.sa_handler = SIG_DFL;
  ::sigaction(SIGCHLD, &standard, &previousSigchld_);
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    finish();
  }
}

void ChildProcess::collect() {
  char buffer[4096];
  while (output_ >= 0) {
    const ssize_t n = ::read(output_, buffer, sizeof buffer);
    if (n > 0) {
      messages_.append(buffer, static_cast<std::size_t>(n));
      if (messages_.size() > kKeptMessages) messages_.erase(0, messages_.size() - kKeptMessages);
    } else if (n == 0) {
      closeFd(output_);  // the child closed its end
    } else if (errno != EINTR) {
      return;  // EAGAIN: nothing more for now
    }
  }
}

bool ChildProcess::write(std::string_view bytes) {
  while (!bytes.empty()) {
    if (input_ < 0) return false;
    const ssize_t n = ::write(input_, bytes.data(), bytes.size());
    if (n > 0) {
      bytes.remove_prefix(static_cast<std::size_t>(n));
      continue;
    }
    if (errno == EINTR) continue;
    if (errno != EAGAIN) return false;  // EPIPE: the child has gone
    // The pipe is full: wait until it drains, reading what the child prints meanwhile.
    pollfd fds[2] = {{input_, POLLOUT, 0}, {output_, POLLIN, 0}};
    ::poll(fds, output_ >= 0 ? 2 : 1, -1);
    collect();
  }
  return true;
}

int ChildProcess::finish() {
  if (pid_ < 0) return -1;
  closeFd(input_);
  // Read until the child closes its output (it exits), then reap it.
  while (output_ >= 0) {
    pollfd fd{output_, POLLIN, 0};
    ::poll(&fd, 1, -1);
    collect();
  }
  int status = 0;
  pid_t waited = -1;
  do {
    waited = ::waitpid(pid_, &status, 0);
  } while (waited < 0 && errno == EINTR);
  pid_ = -1;
  ::sigaction(SIGPIPE, &previousSigpipe_, nullptr);
  ::sigaction(SIGCHLD, &previousSigchld_, nullptr);
  if (waited < 0) return -1;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : -1;
}

std::string ChildProcess::finishAndExplain(const std::string& name, bool inputTaken) {
  const int status = finish();
  if (status == 0 && inputTaken) return {};
  std::string message = name;
  message.append(status == 0 ? " stopped reading its input" : " failed (exit status " + std::to_string(status) + ")");
  if (!messages_.empty()) message.append(": ").append(messages_);
  while (!message.empty() && message.back() == '\n') message.pop_back();
  return message;
}

}  // namespace tinkertoy::cli
