#include "tinkertoy/archive/state_archive.hpp"

#include <array>
#include <cstring>
#include <sstream>

#include "common/bounded_read.hpp"
#include "common/fnv1a.hpp"

namespace tinkertoy {

namespace {

constexpr std::array<char, 8> kSignature = {'T', 'T', 'S', 'T', 'A', 'T', 'E', '\0'};
constexpr std::size_t kHeaderSize = 32;

// The parts as one message (an ostringstream: GCC 12 warns falsely about string concatenation).
template <class... Parts>
std::string words(const Parts&... parts) {
  std::ostringstream out;
  (out << ... << parts);
  return out.str();
}

template <class T>
void put(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

template <class T>
T get(std::string_view bytes, std::size_t at) {
  T value;
  std::memcpy(&value, bytes.data() + at, sizeof(T));
  return value;
}

}  // namespace

void StateArchive::flag(bool& b) {
  std::int64_t value = b ? 1 : 0;
  integer(value);
  if (!reading()) return;
  if (value != 0 && value != 1) throw StateError("the state file holds a flag that is neither 0 nor 1");
  b = value == 1;
}

void StateArchive::numbers(Eigen::MatrixXd& x, Eigen::Index rows, Eigen::Index cols) {
  Eigen::VectorXd entries = Eigen::Map<const Eigen::VectorXd>(x.data(), x.size());
  numbers(entries, rows * cols);
  if (!reading()) return;
  x = Eigen::Map<const Eigen::MatrixXd>(entries.data(), rows, cols);
}

// --- StateWriter ---------------------------------------------------------------------------

void StateWriter::raw(const void* data, std::size_t size) {
  if (size > 0) items_.append(static_cast<const char*>(data), size);  // (data may be null when size is 0)
}

void StateWriter::length(std::size_t count, std::size_t expected) {
  if (count != expected) {
    throw std::logic_error(words("StateWriter: a vector of ", count, " entries where ", expected, " belong"));
  }
  put(items_, static_cast<std::uint64_t>(count));
}

void StateWriter::number(double& x) { put(items_, x); }

void StateWriter::integer(std::int64_t& x) { put(items_, x); }

void StateWriter::numbers(Eigen::VectorXd& x, Eigen::Index size) {
  length(static_cast<std::size_t>(x.size()), static_cast<std::size_t>(size));
  raw(x.data(), static_cast<std::size_t>(x.size()) * sizeof(double));
}

void StateWriter::numbers(std::vector<double>& x, std::size_t size) {
  length(x.size(), size);
  raw(x.data(), x.size() * sizeof(double));
}

void StateWriter::flags(std::vector<char>& x, std::size_t size) {
  length(x.size(), size);
  raw(x.data(), x.size());
}

void StateWriter::expect(std::string_view /*what*/, const std::string& value) {
  put(items_, static_cast<std::uint64_t>(value.size()));
  items_ += value;
}

std::string StateWriter::sealed() const {
  std::string file(kSignature.data(), kSignature.size());
  put(file, kStateFormatVersion);
  put(file, std::uint32_t{0});
  put(file, static_cast<std::uint64_t>(items_.size()));
  put(file, detail::fnv1a(items_));
  return file + items_;
}

// --- StateReader ---------------------------------------------------------------------------

namespace {

// What is wrong with a state file's first kHeaderSize bytes, or "": the signature, the version
// and a length of items that a state file can have.
std::string headerProblem(std::string_view header) {
  if (header.substr(0, kSignature.size()) != std::string_view(kSignature.data(), kSignature.size())) {
    return "not a Tinkertoy state file: it does not begin with the signature TTSTATE";
  }
  const auto version = get<std::uint32_t>(header, 8);
  if (version != kStateFormatVersion) {
    return words("a state file of format version ", version, ", which this build cannot read (it reads version ",
                 kStateFormatVersion, ")");
  }
  const auto announced = get<std::uint64_t>(header, 16);
  if (announced > kMaxStateFileBytes - kHeaderSize) {
    return words("not a state file this build reads: its header announces ", announced,
                 " bytes of state, more than the limit of ", kMaxStateFileBytes >> 20, " MiB");
  }
  return {};
}

}  // namespace

StateReader::StateReader(std::string_view file) {
  if (file.size() < kHeaderSize) {
    throw StateError(words("not a Tinkertoy state file: it is ", file.size(), " bytes, shorter than the ", kHeaderSize,
                           "-byte header of one"));
  }
  if (std::string problem = headerProblem(file.substr(0, kHeaderSize)); !problem.empty()) throw StateError(problem);
  const auto announced = get<std::uint64_t>(file, 16);
  const std::size_t present = file.size() - kHeaderSize;
  if (announced != present) {
    std::ostringstream message;
    message << (present < announced ? "the state file is truncated" : "the state file has bytes after its end")
            << ": its header announces " << announced << " bytes of state, " << present << " follow";
    throw StateError(message.str());
  }
  items_ = file.substr(kHeaderSize);
  if (detail::fnv1a(items_) != get<std::uint64_t>(file, 24)) {
    throw StateError("the state file is corrupt: its contents do not match the checksum in its header");
  }
}

void StateReader::raw(void* data, std::size_t size) {
  if (size > items_.size() - position_) throw StateError("the state file ends in the middle of the state it holds");
  if (size == 0) return;  // an empty vector's data() may be null, which memcpy must not see
  std::memcpy(data, items_.data() + position_, size);
  position_ += size;
}

void StateReader::length(std::size_t expected) {
  std::uint64_t count = 0;
  raw(&count, sizeof count);
  if (count != expected) {
    throw StateError(words("the state file does not fit this simulator: it holds a vector of ", count,
                           " entries where this simulator has ", expected));
  }
}

void StateReader::number(double& x) { raw(&x, sizeof x); }

void StateReader::integer(std::int64_t& x) { raw(&x, sizeof x); }

void StateReader::numbers(Eigen::VectorXd& x, Eigen::Index size) {
  length(static_cast<std::size_t>(size));
  x.resize(size);
  raw(x.data(), static_cast<std::size_t>(x.size()) * sizeof(double));
}

void StateReader::numbers(std::vector<double>& x, std::size_t size) {
  length(size);
  x.resize(size);
  raw(x.data(), x.size() * sizeof(double));
}

void StateReader::flags(std::vector<char>& x, std::size_t size) {
  length(size);
  x.resize(size);
  raw(x.data(), x.size());
}

void StateReader::expect(std::string_view what, const std::string& value) {
  std::uint64_t size = 0;
  raw(&size, sizeof size);
  if (size > items_.size() - position_) throw StateError("the state file ends in the middle of the state it holds");
  const std::string_view saved = items_.substr(position_, static_cast<std::size_t>(size));
  position_ += static_cast<std::size_t>(size);
  if (saved != value) {
    throw StateError(words("the state was saved with ", what, " = ", saved, "; this simulator has ", value));
  }
}

void StateReader::finish() const {
  if (position_ != items_.size()) {
    throw StateError(words("the state file holds ", items_.size() - position_, " bytes more than this simulator reads"));
  }
}

// The header is checked as soon as it has arrived, and the file is read no further than the
// length it announces (and one byte more, which the reader then reports): a file that is not a
// state file, or an endless one, costs at most one chunk.
std::string readStateFile(const std::filesystem::path& path) {
  std::string header;
  std::size_t seen = 0;
  const detail::ChunkInspector inspect = [&](std::string_view chunk) -> std::string {
    seen += chunk.size();
    if (header.size() < kHeaderSize) {
      header.append(chunk.substr(0, kHeaderSize - header.size()));
      if (header.size() < kHeaderSize) return {};
      if (std::string problem = headerProblem(header); !problem.empty()) return problem;
    }
    const auto announced = get<std::uint64_t>(header, 16);
    if (seen > kHeaderSize + announced + 1) {
      return words("the state file has bytes after its end: its header announces ", announced,
                   " bytes of state, and more follow");
    }
    return {};
  };
  detail::BoundedRead read = detail::readBounded(path, kMaxStateFileBytes, inspect);
  using Problem = detail::BoundedRead::Problem;
  const std::string name = words("'", path.string(), "'");
  switch (read.problem) {
    case Problem::None:
      return std::move(read.bytes);
    case Problem::CannotOpen:
      throw StateError(words("cannot open the state file ", name, ": ", read.reason));
    case Problem::CannotRead:
      throw StateError(words("cannot read the state file ", name, ": ", read.reason));
    case Problem::Refused:
      throw StateError(words(name, ": ", read.reason));
    case Problem::TooLarge:
      break;
  }
  throw StateError(words("the file ", name, " is larger than the limit of ", kMaxStateFileBytes >> 20, " MiB of a state file"));
}

}  // namespace tinkertoy
