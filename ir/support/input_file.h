// The one way tujit reads a file (kernel specs, .npy inputs, sweep files and templates, --merge
// shards, object-cache entries): regular files only, sized before anything is read, so no input
// can hang the process or exhaust its memory. A FIFO without a writer would block forever, a
// device such as /dev/zero never ends, and a directory is no file: each is refused at once
// (E-IO-005, exit 2) — the path is examined before opening (opening a FIFO blocks, opening some
// devices has effects), and the open descriptor again (the path may have been swapped). Callers
// check size() against their limit before reading, then read exactly that many bytes; a file
// that shrinks or grows meanwhile is an error, not a silently different input.
#pragma once

#include "ir/support/diagnostic.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tujit {

class InputFile {
public:
  /// E-IO-001 when `path` cannot be opened (naming the reason), E-IO-005 when it is not a
  /// regular file.
  static Result<InputFile> open(const std::string& path);

  InputFile(InputFile&& other) noexcept;
  InputFile& operator=(InputFile&& other) noexcept;
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  ~InputFile();

  const std::string& path() const { return path_; }
  /// The size when opened.
  std::uint64_t size() const { return size_; }
  /// Bytes read so far.
  std::uint64_t position() const { return position_; }

  /// Reads exactly `n` bytes into `dst` (E-IO-001 on a read error, or when the file ends first).
  std::optional<Diagnostic> read(void* dst, std::size_t n);
  /// The bytes from the position to size() (E-IO-001 when the file does not end there).
  Result<std::string> read_rest();

private:
  InputFile() = default;

  std::string path_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
  std::uint64_t position_ = 0;
};

/// E-LIMIT-004 when `file` is larger than `max_bytes`: "`path` is N bytes, more than the M a
/// `kind` may have".
std::optional<Diagnostic> check_input_size(const InputFile& file, std::uint64_t max_bytes,
                                           std::string_view kind);

/// open(), check_input_size(), read_rest().
Result<std::string> read_input_file(const std::string& path, std::uint64_t max_bytes,
                                    std::string_view kind);

} // namespace tujit
