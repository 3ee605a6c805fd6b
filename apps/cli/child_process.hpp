// ChildProcess: another program (ffmpeg, gnuplot) started without a shell and fed through a
// pipe on its standard input. What it prints on stdout and stderr is collected, so an error
// can quote it, and read while we write, so a chatty program cannot stall the pipe.
//
//   ChildProcess gnuplot(findProgram("gnuplot"), {});
//   const bool taken = gnuplot.write(script);
//   if (gnuplot.finish() != 0 || !taken) std::cerr << gnuplot.messages();
#pragma once

#include <csignal>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

namespace tinkertoy::cli {

// The path of the executable `name` found on PATH, or "" when there is none.
std::string findProgram(const std::string& name);
// "needs the <name> program, which is not on PATH; install the Debian package <package> …".
std::string missingProgram(const std::string& name, const std::string& package);

class ChildProcess {
 public:
  // Starts `program` (a path) with `args`. Throws std::runtime_error when it cannot start.
  ChildProcess(const std::string& program, const std::vector<std::string>& args);
  // A child still running is killed and reaped.
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Writes every byte to the child's input; false when the child stopped reading (it exited).
  bool write(std::string_view bytes);
  // Closes the child's input and waits for it: its exit status, 128 + the signal that ended
  // it, or -1 when it could not be waited for.
  int finish();
  // finish(), then "" when the child took all its input (`inputTaken`, what write() said) and
  // exited with 0; otherwise what went wrong, naming the child `name` and quoting its messages.
  std::string finishAndExplain(const std::string& name, bool inputTaken);
  // The last 16 KiB the child printed.
  [[nodiscard]] const std::string& messages() const { return messages_; }

 private:
  void collect();  // reads whatever the child has printed, without blocking

  pid_t pid_ = -1;
  int input_ = -1;   // our end of its stdin (non-blocking)
  int output_ = -1;  // our end of its stdout + stderr (non-blocking)
  std::string messages_;
  struct sigaction previousSigpipe_ {}, previousSigchld_ {};
};

}  // namespace tinkertoy::cli
