// StateArchive: a simulator's state as bytes, for exact save and restore (Simulator::saveState).
//
// Each class that carries something from one step to the next (warm-start impulses, active
// sets, a factorization it reuses, an adaptive integrator's step in progress) lists it once, in
// a serialize(StateArchive&) that serves both directions: a StateWriter records every item, a
// StateReader puts back what was recorded, in the same order, checking as it goes. What a class
// recomputes identically from the model and the state (scratch, caches) it does not list.
//
// The file: a 32-byte header, then the items.
//
//   offset  size  field
//        0     8  signature "TTSTATE" and a zero byte
//        8     4  format version (kStateFormatVersion), little-endian
//       12     4  zero
//       16     8  length of the items in bytes, little-endian
//       24     8  FNV-1a 64 checksum of the items, little-endian
//       32     …  the items: numbers as IEEE 754 binary64 and integers as 64-bit two's
//                 complement, little-endian; a vector as its length, then its entries; a text
//                 as its length, then its bytes
//
//   StateWriter writer;
//   simulator.serialize(writer);            // Simulator::saveState() does this
//   std::string file = writer.sealed();
//   StateReader reader(file);               // throws StateError: not a state file, corrupt, …
//   simulator.serialize(reader);
//   reader.finish();
#pragma once

#include <Eigen/Core>
#include <bit>
#include <concepts>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace tinkertoy {

inline constexpr std::uint32_t kStateFormatVersion = 9;
// The largest state file readStateFile() reads: 2 GiB.
inline constexpr std::size_t kMaxStateFileBytes = std::size_t{2} << 30;

// A saved state that cannot be restored: not a state file, a corrupt, truncated or
// wrong-version one, or one saved from another model or with other settings.
class StateError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class StateArchive {
 public:
  virtual ~StateArchive() = default;

  // True for a StateReader: the items are being put back.
  [[nodiscard]] virtual bool reading() const = 0;
  virtual void number(double& x) = 0;
  virtual void integer(std::int64_t& x) = 0;
  // A vector of exactly `size` entries (state that exists only sometimes follows a flag()).
  virtual void numbers(Eigen::VectorXd& x, Eigen::Index size) = 0;
  virtual void numbers(std::vector<double>& x, std::size_t size) = 0;
  virtual void flags(std::vector<char>& x, std::size_t size) = 0;
  // The writer records `value`; the reader throws StateError unless the recorded one equals
  // it: "the state was saved with <what> = <recorded>; this simulator has <value>".
  virtual void expect(std::string_view what, const std::string& value) = 0;

  void flag(bool& b);
  // A matrix of rows × cols entries.
  void numbers(Eigen::MatrixXd& x, Eigen::Index rows, Eigen::Index cols);
  // Any integer type; the reader refuses a value the type cannot hold.
  template <std::integral Int>
  void integer(Int& x) {
    std::int64_t wide = static_cast<std::int64_t>(x);
    integer(wide);
    if (reading()) x = narrow<Int>(wide);
  }

 private:
  template <std::integral Int>
  static Int narrow(std::int64_t wide) {
    if constexpr (std::is_signed_v<Int>) {
      if (wide >= std::numeric_limits<Int>::min() && wide <= std::numeric_limits<Int>::max()) return static_cast<Int>(wide);
    } else if (wide >= 0 && static_cast<std::uint64_t>(wide) <= std::numeric_limits<Int>::max()) {
      return static_cast<Int>(wide);
    }
    throw StateError("the state file holds an integer out of its range");
  }
};

class StateWriter final : public StateArchive {
 public:
  [[nodiscard]] bool reading() const override { return false; }
  void number(double& x) override;
  void integer(std::int64_t& x) override;
  void numbers(Eigen::VectorXd& x, Eigen::Index size) override;
  void numbers(std::vector<double>& x, std::size_t size) override;
  void flags(std::vector<char>& x, std::size_t size) override;
  void expect(std::string_view what, const std::string& value) override;
  using StateArchive::integer;
  using StateArchive::numbers;

  // The header and the items: the bytes of a state file.
  [[nodiscard]] std::string sealed() const;

 private:
  void raw(const void* data, std::size_t size);
  void length(std::size_t count, std::size_t expected);
  std::string items_;
};

class StateReader final : public StateArchive {
 public:
  // Checks the header, the length and the checksum of `file` (which must outlive the reader).
  // Throws StateError saying what is wrong.
  explicit StateReader(std::string_view file);

  [[nodiscard]] bool reading() const override { return true; }
  void number(double& x) override;
  void integer(std::int64_t& x) override;
  void numbers(Eigen::VectorXd& x, Eigen::Index size) override;
  void numbers(std::vector<double>& x, std::size_t size) override;
  void flags(std::vector<char>& x, std::size_t size) override;
  void expect(std::string_view what, const std::string& value) override;
  using StateArchive::integer;
  using StateArchive::numbers;

  // Throws StateError unless every item was read.
  void finish() const;

 private:
  void raw(void* data, std::size_t size);
  // Reads a vector's length, which must be `expected`.
  void length(std::size_t expected);
  std::string_view items_;
  std::size_t position_ = 0;
};

// The bytes of the state file at `path`, for Simulator::restoreState. Throws StateError naming
// the file when it cannot be opened or read, or is larger than kMaxStateFileBytes.
std::string readStateFile(const std::filesystem::path& path);

static_assert(std::endian::native == std::endian::little, "state files are written little-endian as the machine stores them");
static_assert(std::numeric_limits<double>::is_iec559, "state files hold IEEE 754 doubles");

}  // namespace tinkertoy
