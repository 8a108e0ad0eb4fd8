// The one way tujit writes a file (npy outputs, JSON and CSV reports, SVG pictures, assembly,
// object-cache entries). A reader of the target path sees either the old file or the complete
// new one, never a mixture, and the target is only ever a regular file:
//
//   1. check_output_path() before any work: an existing target is refused without `overwrite`
//      (E-IO-002); a target that is not a regular file (a directory, device, FIFO, socket or
//      symbolic link) is refused with or without it (E-IO-003), so `--force` never replaces
//      /dev/full or writes through a link.
//   2. create(): a fresh temporary `.NAME.tujit-XXXXXX` in the target's directory, opened
//      O_CREAT|O_EXCL|O_NOFOLLOW (no other process, and no planted symbolic link, can share it);
//      registered for removal if SIGINT / SIGTERM / SIGHUP ends the process (interrupt.h).
//   3. write(): every write is checked (short writes retried, EINTR retried).
//   4. commit(): fsync, close (checked), the target checked again, rename over it (without
//      `overwrite`, renameat2(RENAME_NOREPLACE): a file that appeared meanwhile is not
//      replaced), fsync of the directory.
//
// Any failure removes the temporary, leaves the target as it was, and is one diagnostic naming
// the real cause: E-IO-004 with the target, the step and the system's reason (no space left on
// the device, disk quota exceeded, missing directory, permission, read-only file system, …).
// Only E-IO-002 suggests --force. Usage:
//
//   if (auto d = io::check_output_path(path, force)) return fail(*d);   // before the work
//   … the work …
//   if (auto d = io::write_file(path, bytes, force)) return fail(*d);
//
// or, for output produced piece by piece: `auto f = io::OutputFile::create(path, force);`, then
// `f->write(…)` as often as needed and `f->commit()`; destroying an uncommitted OutputFile
// removes its temporary.
#pragma once

#include "ir/support/diagnostic.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace tujit::runtime::io {

/// E-IO-002 when `path` exists and `overwrite` is false; E-IO-003 when it exists and is not a
/// regular file; E-IO-004 when its directory does not exist or is not a directory. nullopt when
/// a write may go ahead.
std::optional<Diagnostic> check_output_path(const std::string& path, bool overwrite);

class OutputFile {
public:
  /// check_output_path(), then the temporary. `mode` is the new file's permission bits before
  /// the umask (0666: like any file a user writes; the object cache uses 0600).
  static Result<OutputFile> create(const std::string& path, bool overwrite, unsigned mode = 0666);

  OutputFile(OutputFile&& other) noexcept;
  OutputFile& operator=(OutputFile&& other) noexcept;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  /// Removes the temporary unless commit() succeeded.
  ~OutputFile();

  std::optional<Diagnostic> write(std::span<const std::uint8_t> bytes);
  std::optional<Diagnostic> write(std::string_view text);
  /// Publishes the file at the target path (steps 4 above). After a failure the temporary is
  /// gone; either way the object is finished.
  std::optional<Diagnostic> commit();

  const std::string& path() const { return path_; }
  const std::string& temporary() const { return temp_; }
  std::uint64_t bytes_written() const { return written_; }

private:
  OutputFile() = default;
  Diagnostic fail(std::string_view step, int error);
  void discard();

  std::string path_, temp_;
  int fd_ = -1;
  int slot_ = -1;
  bool overwrite_ = false;
  std::uint64_t written_ = 0;
};

/// check, create, write, commit in one call.
std::optional<Diagnostic> write_file(const std::string& path, std::span<const std::uint8_t> bytes,
                                     bool overwrite);
std::optional<Diagnostic> write_file(const std::string& path, std::string_view text,
                                     bool overwrite);

/// Fault injection for tests, so disk-full and I/O errors are tested without privileges: while
/// set, the given step of every OutputFile fails with `error` (an errno value such as ENOSPC,
/// EDQUOT, EIO) as the system call would. For Write, the first `after_bytes` bytes of each file
/// are written first (a disk that fills up mid-file). Process-wide; tests set and clear it.
enum class WriteStep : std::uint8_t { Create, Write, Sync, Close, Rename };
struct WriteFault {
  WriteStep step = WriteStep::Write;
  int error = 0;
  std::uint64_t after_bytes = 0;
};
void set_write_fault(std::optional<WriteFault> fault);

} // namespace tujit::runtime::io
